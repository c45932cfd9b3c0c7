# Loops: for/else and while/else, break and continue, nested loops with a flag.
for n in range(2, 12):
    for d in range(2, n):
        if n % d == 0:
            break
    else:
        print(n, "is prime")

i = 0
while i < 3:
    i += 1
    if i == 2:
        continue
    print("i", i)
else:
    print("while finished")

while True:
    i -= 1
    if i < 0:
        break
print("i after", i)
for x in []:
    print("never")
else:
    print("empty loop else")
