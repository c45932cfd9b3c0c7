// Number(), parseInt (with radix), parseFloat and unary plus on text.
console.log(Number(''), Number('  12  '), Number('1e3'), Number('0x1F'), Number('0b101'), Number('0o17'), Number('12px'));
console.log(Number(null), Number(undefined), Number(true), Number([5]), Number([1, 2]), Number({}), Number('-Infinity'));
console.log(parseInt('08'), parseInt('0x1f'), parseInt('12px'), parseInt('1e3'), parseInt('  -42.9'), parseInt('abc'));
console.log(parseInt('ff', 16), parseInt('101', 2), parseInt('z', 36), parseInt('12', 5), parseInt(0.0000005), parseInt('0.9'));
console.log(parseFloat('3.14abc'), parseFloat('.5'), parseFloat('-1e-2x'), parseFloat('Infinityx'), parseFloat(''), parseFloat('  7 '));
console.log(+'3', +'', +' 4 ', -'5', +'1_000', +[], +[[]], +'0x10');
console.log(Number.parseFloat('2.5'), Number.parseInt('77', 8), Number.isNaN('abc'), isNaN('abc'), isFinite('12'), Number.isFinite('12'));
