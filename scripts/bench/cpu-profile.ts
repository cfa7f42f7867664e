/**
 * V8's `.cpuprofile` (what `node --cpu-prof` writes), reduced to self time per function:
 * the time the CPU spent in a function's own code, not in what it called.
 * https://chromedevtools.github.io/devtools-protocol/tot/Profiler/#type-Profile
 */
interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}

export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  /** Microseconds between consecutive samples; the first is from the profile's start. */
  readonly timeDeltas: readonly number[];
}

export interface SelfTime {
  /** `function (file:line)`, or a package name when grouped by package. */
  readonly name: string;
  readonly selfMs: number;
  readonly share: number;
}

function isNumberArray(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'number');
}

function isProfileNode(value: unknown): value is ProfileNode {
  if (typeof value !== 'object' || value === null || !('id' in value) || !('callFrame' in value)) return false;
  const frame = value.callFrame;
  return (
    typeof value.id === 'number' &&
    typeof frame === 'object' &&
    frame !== null &&
    'functionName' in frame &&
    typeof frame.functionName === 'string' &&
    'url' in frame &&
    typeof frame.url === 'string' &&
    'lineNumber' in frame &&
    typeof frame.lineNumber === 'number' &&
    (!('children' in value) || isNumberArray(value.children))
  );
}

export function parseCpuProfile(text: string): CpuProfile {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || !('nodes' in parsed) || !('samples' in parsed) || !('timeDeltas' in parsed)) {
    throw new Error('not a V8 CPU profile: expected nodes, samples and timeDeltas');
  }
  const { nodes, samples, timeDeltas } = parsed;
  if (!Array.isArray(nodes) || !nodes.every(isProfileNode) || !isNumberArray(samples) || !isNumberArray(timeDeltas)) {
    throw new Error('not a V8 CPU profile: malformed nodes, samples or timeDeltas');
  }
  return { nodes, samples, timeDeltas };
}

/** Where code comes from: a package under node_modules, Node itself, V8, or the app's bundle. */
export function origin(url: string, functionName: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg?.[1] !== undefined) return pkg[1];
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0] ?? ''}`;
  if (url === '') return functionName.startsWith('(') ? functionName : '(native/V8)';
  const file = url.split('/').slice(-2).join('/');
  return file;
}

function label(frame: CallFrame): string {
  const file = frame.url === '' ? '' : ` (${frame.url.replace(/^file:\/\/.*?\/(node_modules|dist)\//, '$1/')}:${frame.lineNumber + 1})`;
  return `${frame.functionName === '' ? '(anonymous)' : frame.functionName}${file}`;
}

/**
 * Self time summed per key, largest first. `byPackage` groups by `origin` instead of by
 * function, which answers "whose code is this": express, pino, react-dom, node:…
 */
export function selfTimes(profile: CpuProfile, byPackage = false): SelfTime[] {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const totals = new Map<string, number>();
  let all = 0;
  profile.samples.forEach((id, index) => {
    const frame = frames.get(id);
    const delta = profile.timeDeltas[index] ?? 0;
    if (frame === undefined) return;
    const key = byPackage ? origin(frame.url, frame.functionName) : label(frame);
    totals.set(key, (totals.get(key) ?? 0) + delta);
    all += delta;
  });
  return [...totals.entries()]
    .map(([name, micros]) => ({ name, selfMs: micros / 1000, share: all === 0 ? 0 : micros / all }))
    .sort((a, b) => b.selfMs - a.selfMs);
}

/**
 * Who calls a hot function: self time of the samples whose frame is named `functionName`,
 * summed per chain of its `depth` nearest callers (nearest first). Native functions such as
 * `writeUtf8String` say nothing on their own; their callers say what to change.
 */
export function callers(profile: CpuProfile, functionName: string, depth = 4): SelfTime[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const totals = new Map<string, number>();
  let all = 0;
  profile.samples.forEach((id, index) => {
    if (byId.get(id)?.callFrame.functionName !== functionName) return;
    const chain: string[] = [];
    for (let parent = parents.get(id); parent !== undefined && chain.length < depth; parent = parents.get(parent)) {
      const frame = byId.get(parent)?.callFrame;
      if (frame !== undefined) chain.push(label(frame));
    }
    const delta = profile.timeDeltas[index] ?? 0;
    const key = chain.join(' < ');
    totals.set(key, (totals.get(key) ?? 0) + delta);
    all += delta;
  });
  return [...totals.entries()]
    .map(([name, micros]) => ({ name, selfMs: micros / 1000, share: all === 0 ? 0 : micros / all }))
    .sort((a, b) => b.selfMs - a.selfMs);
}

/**
 * Inclusive time: a function's own code and everything it called, each sample counted once per
 * function however deep the recursion. Middleware shows its full price here (helmet's chain,
 * pino-http's child logger), where self time scatters it over the functions it calls.
 */
export function inclusiveTimes(profile: CpuProfile): SelfTime[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const totals = new Map<string, number>();
  let all = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    if (byId.get(id)?.callFrame.functionName === '(idle)') return;
    all += delta;
    const seen = new Set<string>();
    for (let node: number | undefined = id; node !== undefined; node = parents.get(node)) {
      const frame = byId.get(node)?.callFrame;
      if (frame === undefined || frame.functionName === '(root)') continue;
      const key = label(frame);
      if (seen.has(key)) continue;
      seen.add(key);
      totals.set(key, (totals.get(key) ?? 0) + delta);
    }
  });
  return [...totals.entries()]
    .map(([name, micros]) => ({ name, selfMs: micros / 1000, share: all === 0 ? 0 : micros / all }))
    .sort((a, b) => b.selfMs - a.selfMs);
}
