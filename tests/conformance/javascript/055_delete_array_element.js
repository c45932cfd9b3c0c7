// delete of an array element leaves a hole: the length stays, 'in' and iteration skip it.
const arr = [1, 2, 3];
delete arr[1];
console.log(arr.length, arr[1], arr.join('-'));
console.log(1 in arr, arr.map((x) => x * 2).length);
