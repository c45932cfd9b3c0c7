# Recursion: factorial, memoized Fibonacci with a dict, recursive list flattening.
def factorial(n):
    return 1 if n <= 1 else n * factorial(n - 1)


memo = {}


def fib(n):
    if n in memo:
        return memo[n]
    result = n if n < 2 else fib(n - 1) + fib(n - 2)
    memo[n] = result
    return result


def flatten(items):
    out = []
    for item in items:
        if isinstance(item, list):
            out.extend(flatten(item))
        else:
            out.append(item)
    return out


print(factorial(10), fib(40), len(memo))
print(flatten([1, [2, [3, [4]], 5], [[6]]]))
