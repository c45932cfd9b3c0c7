// A with statement is not followed: what it does inside is reported, never guessed.
const box = { w: 1, h: 2 };
with (box) { w = 10; }
console.log(box.w);
