# Generator functions run lazily: the body runs between the consumer's steps.
def count_up(n):
    print("start")
    for i in range(n):
        print("yield", i)
        yield i
    print("done")


for value in count_up(3):
    print("got", value)

gen = count_up(2)
print("created")
print(list(gen))
print(list(gen))
