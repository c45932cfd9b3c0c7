// import aliases name a namespace member; assertions around an assignment target are erased.
namespace Shapes { export const unit = 2; export namespace Deep { export const k = 'deep'; } }
import Unit = Shapes.unit;
import Deep = Shapes.Deep;
let target: number | undefined;
const holder: { v?: number } = {};
(target as any) = Unit * 3;
holder.v! = 4;
(<any>holder).w = 5;
console.log(Unit, Deep.k, target, holder.v, (holder as any).w);
