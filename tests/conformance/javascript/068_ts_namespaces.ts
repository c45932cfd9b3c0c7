// Namespaces hold their exported members.
namespace Geo {
  export const unit = 2;
  export function scale(x: number): number { return x * unit; }
  const hidden = 'secret';
  export function reveal(): string { return hidden.toUpperCase(); }
  export namespace Inner { export const deep = 'deep'; }
}
console.log(Geo.unit, Geo.scale(3), Geo.reveal(), Geo.Inner.deep, (Geo as any).hidden);
