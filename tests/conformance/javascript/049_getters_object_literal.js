// Getters and setters in object literals compute when read.
let reads = 0;
const box = {
  w: 2,
  h: 3,
  get area() { reads++; return this.w * this.h; },
  set size(s) { this.w = s; this.h = s; },
};
console.log(box.area, reads);
box.w = 5;
console.log(box.area, reads);
box.size = 4;
console.log(box.w, box.h, box.area);
