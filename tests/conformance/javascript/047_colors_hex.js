// Colour arithmetic: hex channels, padding, parsing hex text.
const hex = 0x3366cc;
const r = (hex >> 16) & 255, g = (hex >> 8) & 0xff, b = hex & 0xff;
console.log(r, g, b, (r / 255).toFixed(3));
console.log('#' + hex.toString(16).padStart(6, '0'), '#' + (0x00ff00).toString(16).padStart(6, '0'));
console.log(parseInt('ff8800', 16), parseInt('#ff8800'.slice(1), 16) === 0xff8800, Number('0xff8800'));
const toHex = (c) => Math.round(c * 255).toString(16).padStart(2, '0');
console.log([0.2, 0.5, 1].map(toHex).join(''));
const rgb = `rgb(${r}, ${g}, ${b})`;
const nums = rgb.slice(4, -1).split(',').map((s) => parseInt(s.trim(), 10));
console.log(nums.join('|'), (nums[0] << 16 | nums[1] << 8 | nums[2]) === hex);
