// as, as const, satisfies, non-null and angle-bracket assertions are erased.
const cfg = { size: 2, color: 'red' } as const;
const colors = ['red', 'green'] as const;
type Config = { size: number; color: string };
const checked = { size: 3, color: 'blue' } satisfies Config;
const n = (5 as unknown) as number;
const maybe: number[] | undefined = [1, 2];
console.log(cfg.size, colors[1], checked.color, n + 1, maybe!.length, (<number>n) * 2);
const el = { value: '12' } as { value: string };
console.log(Number(el.value) + 1);
const table = {
  box: { h: 1 },
  tall: { h: 3 },
} satisfies Record<string, { h: number }>;
for (const [k, v] of Object.entries(table)) console.log(k, v.h);
