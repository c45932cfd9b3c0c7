// typeof and the two equalities.
class C {}
const vals = [1, 'a', true, null, undefined, {}, [], () => 1, C, NaN];
console.log(vals.map((v) => typeof v).join(' '));
console.log(typeof undeclaredName, typeof Math, typeof Math.max);
console.log(1 == '1', 1 === '1', 0 == '', 0 == false, null == undefined, null === undefined, null == 0);
console.log(NaN == NaN, NaN === NaN, [1] == 1, '1,2' == [1, 2], ({}) == '[object Object]', 0 === -0);
const a = {}, b = a;
console.log(a === b, {} === {}, [] == [], Object.is(0, -0), Object.is(NaN, NaN));
console.log(1 != '1', 1 !== '1', undefined != null, 2 > '10', '2' > '10', null >= 0, undefined >= 0);
