# %-formatting: conversions, width, precision, flags, a mapping, and %%.
print("%d %s %.2f" % (3, "cube", 1.23456))
print("%5.1f|%-6s|%06.2f|%+d|%x|%X|%o|%e" % (2.25, "ab", 3.14159, 5, 255, 255, 8, 1234.5))
print("%r %s" % ("q", [1, 2]))
print("%(name)s is %(size).1f units" % {"name": "box", "size": 2})
print("100%% done, %s" % "ok")
print("%s" % (1.0,), "%i" % 7.9, "%.3g" % 0.000123456)
print("%c%c" % (72, "i"))
