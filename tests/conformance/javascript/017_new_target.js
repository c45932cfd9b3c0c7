// new.target: the class new was called with (abstract bases refuse to be built).
class Base {
  constructor() {
    this.kind = new.target.name;
    this.direct = new.target === Base;
  }
}
class Derived extends Base {}
const a = new Base(), b = new Derived();
console.log(a.kind, a.direct, b.kind, b.direct);
function Maker() { return new.target === undefined ? 'called' : 'constructed'; }
console.log(Maker(), typeof new Maker());
class Abstract {
  constructor() { if (new.target === Abstract) throw new Error('abstract'); this.ok = true; }
}
class Concrete extends Abstract {}
try { new Abstract(); } catch (e) { console.log('refused:', e.message); }
console.log(new Concrete().ok);
