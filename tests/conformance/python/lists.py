# list methods: append/extend/insert/pop/remove/index/count/sort/reverse/copy, and sorted().
xs = [5, 3, 8]
xs.append(1)
xs.extend([7, 7])
xs.insert(1, 0)
print(xs, xs.pop(), xs.pop(0), xs)
xs.remove(7)
print(xs, xs.index(8), xs.count(3), len(xs))
xs.sort()
print(xs)
xs.sort(reverse=True)
print(xs)
words = ["cone", "Cube", "sphere", "box"]
print(sorted(words), sorted(words, key=str.lower), sorted(words, key=len, reverse=True))
words.sort(key=lambda w: (len(w), w))
print(words)
ys = xs.copy()
ys.reverse()
print(xs, ys, xs + ys[:1], [0] * 3, [[0] * 2] * 2)
print(min(words, key=len), max([3, 1, 2]), min([], default="none"), sum([[1], [2]], []))
a = [1, 2]
b = a
b += [3]
print(a, b is a)
nested = [[1, 2], [3]]
flat = [x for row in nested for x in row]
print(flat, list(reversed(flat)), [1, 2] == [1, 2], [1, 2] < [1, 3])
