// Bitwise operators work on 32-bit integers.
console.log(5 | 0, -5.7 | 0, 2 ** 32 + 5 | 0, 2 ** 31 | 0, ~~3.9, ~~-3.9, ~5);
console.log(-1 >>> 0, -1 >>> 28, 1 << 31, 1 << 32, 1 << 33, -16 >> 2, -16 >>> 2);
console.log(0xff & 0x0f, 0xf0 | 0x0f, 0xff ^ 0x0f, 6 & 3, (0x123456 >> 8) & 0xff);
let flags = 0;
flags |= 1 << 2;
flags |= 1;
flags &= ~1;
flags ^= 8;
flags <<= 1;
flags >>= 1;
flags >>>= 0;
console.log(flags, NaN | 0, Infinity | 0, '12' | 0, '0x10' | 0);
