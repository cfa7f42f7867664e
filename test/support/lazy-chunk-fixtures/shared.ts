// State a module holds: two copies of it would count apart.
let count = 0;

export function shared(): number {
  count += 1;
  return count;
}
