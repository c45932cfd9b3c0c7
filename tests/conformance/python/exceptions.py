# try/except/else/finally, raising and catching by type, the exception's message.
def parse_size(text):
    try:
        value = float(text)
    except ValueError:
        print("not a number:", text)
        return None
    else:
        print("parsed", value)
        return value
    finally:
        print("finally for", text)


parse_size("2.5")
parse_size("big")


def check(n):
    if n < 0:
        raise ValueError(f"negative: {n}")
    return n


for n in [1, -2]:
    try:
        print("ok", check(n))
    except ValueError as error:
        print("caught", error)

try:
    {}["missing"]
except KeyError as e:
    print("key error", e)
try:
    [1][5]
except (IndexError, TypeError):
    print("index error")
try:
    1 / 0
except ZeroDivisionError:
    print("division by zero")
print("end")
