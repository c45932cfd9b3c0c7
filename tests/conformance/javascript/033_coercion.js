// Implicit conversions of + and the other operators.
console.log('5' * '2', '5' + 2, 5 + '2', '5' - 2, 5 + null, 5 + undefined, 'a' - 1);
console.log([] + [], [1, 2] + [3], ({}) + '', true + 1, true + '1', null + 'x');
console.log('3' * [4], [2] * [3], '10' / '4', '7' % '4', -'3' + 1, '2' ** 3);
console.log(1 + 2 + '3', '1' + 2 + 3, 1 + +'2', '4' - - '2');
console.log(1 < 2 < 3, 3 > 2 > 1, '10' > 9, 'b' > 'a', null + 1, [] == false);
