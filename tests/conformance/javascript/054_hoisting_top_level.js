// A top-level var read before its declaration is undefined.
console.log(typeof early, early);
var early = 'set';
console.log(early);
