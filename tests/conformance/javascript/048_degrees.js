// Degrees and radians, as rotations are written.
const deg = (d) => d * Math.PI / 180;
const angles = [0, 30, 45, 90, 180, -90, 360];
console.log(angles.map((a) => deg(a).toFixed(5)).join(' '));
console.log(Math.sin(deg(30)).toFixed(10), Math.cos(deg(60)).toFixed(10), Math.tan(deg(45)).toFixed(10));
console.log((Math.atan2(1, 1) * 180 / Math.PI).toFixed(2), Math.PI / 2, -Math.PI / 4);
console.log(deg(90) === Math.PI / 2, Math.abs(Math.cos(deg(90))) < 1e-15);
