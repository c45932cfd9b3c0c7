// Constructor functions and prototypes, as pre-class code writes them.
function Point(x, y) { this.x = x; this.y = y; }
Point.prototype.dist = function () { return Math.hypot(this.x, this.y); };
Point.prototype.kind = 'point';
Point.origin = function () { return new Point(0, 0); };
const p = new Point(3, 4);
console.log(p.dist(), p.kind, p instanceof Point, Point.origin().dist());
function Labeled(x, y, label) { Point.call(this, x, y); this.label = label; }
Labeled.prototype = Object.create(Point.prototype);
Labeled.prototype.constructor = Labeled;
const l = new Labeled(6, 8, 'L');
console.log(l.dist(), l.label, l instanceof Point, l.kind);
