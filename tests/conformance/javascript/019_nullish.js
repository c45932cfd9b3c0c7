// ?? keeps 0, '' and false; ||= &&= ??= assign only when they should.
console.log(0 ?? 1, '' ?? 'x', false ?? true, null ?? 'n', undefined ?? 'u', NaN ?? 2);
console.log(0 || 1, '' || 'x', null || undefined, 0 && 'no', 1 && 'yes');
const opts = { speed: 0, name: '', scale: null };
opts.speed ??= 5;
opts.name ||= 'default';
opts.scale ??= 1;
opts.extra &&= 'never';
opts.speed &&= 'was truthy';
console.log(JSON.stringify(opts));
let calls = 0;
const side = () => { calls++; return 'side'; };
const v = 'set' ?? side();
console.log(v, calls, (null ?? side()), calls);
console.log((null || undefined) ?? 'chain');
