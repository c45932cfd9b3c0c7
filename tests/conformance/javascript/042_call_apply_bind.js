// call, apply and bind set this and arguments.
function describe(greeting, punct) { return `${greeting}, ${this.name}${punct}`; }
const who = { name: 'cube' };
console.log(describe.call(who, 'Hi', '!'), describe.apply(who, ['Hey', '?']));
const bound = describe.bind(who, 'Yo');
console.log(bound('.'), bound('!!'));
const add = (a, b) => a + b;
const add5 = add.bind(null, 5);
console.log(add5(10), Math.max.apply(null, [3, 9, 4]));
