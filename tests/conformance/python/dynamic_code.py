# Code the script builds at run time (eval, exec) has no static reading: reported, not guessed.
print("before")
expression = "2 + 3 * 4"
print(eval(expression))
namespace = {}
exec("x = 21 * 2", namespace)
print(namespace["x"])
print("after")
