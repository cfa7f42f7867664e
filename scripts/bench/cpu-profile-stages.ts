/**
 * Where a server's CPU time goes, by stage of an answer, from a V8 CPU profile (`node
 * --cpu-prof`, the bench's `--cpu-prof DIR`): each sample's time goes to the stage of the
 * nearest frame, from the sampled function up its stack, that is the product's, a dependency's
 * Node's HTTP and socket path, or the Fetch API's objects. Node's other library code (`node:*`), V8's builtins and the
 * cookie parser are passed through, so the HMAC of a form token counts for the form token and a `Buffer` copy for
 * whoever asked for it. Work that runs later (a promise's continuation, a timer) has its own
 * stack and counts where it runs.
 */

export interface CallFrame {
  readonly functionName: string;
  /** `file:///…/main.js`, `node:net`, or '' for V8's own. */
  readonly url: string;
  /** 0-based, as V8 writes them. */
  readonly lineNumber: number;
  readonly columnNumber: number;
}

export interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children: readonly number[];
}

/** The parts of a `.cpuprofile` the attribution reads. */
export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  /** Microseconds. */
  readonly startTime: number;
  readonly endTime: number;
  /** The node sampled each time. */
  readonly samples: readonly number[];
  /** Microseconds since the previous sample (the first: since startTime). */
  readonly timeDeltas: readonly number[];
}

/** A frame as the rules see it: its function and the file it was written in (through the bundle's source map when there is one). */
export interface SourceFrame {
  readonly functionName: string;
  readonly source: string;
}

export interface Stage {
  readonly id: string;
  readonly label: string;
  readonly matches: (frame: SourceFrame) => boolean;
}

const inFile =
  (...patterns: readonly RegExp[]) =>
  (frame: SourceFrame) =>
    patterns.some((pattern) => pattern.test(frame.source));

/** Node's own socket and stream path: what writing an answer costs on any server. */
const NODE_WRITES = /^node:(?:net$|internal\/stream_base_commons$|internal\/streams\/|stream$)/;
/** The Fetch API's objects in Node (undici) and the web streams a `Response` body is. */
const WEB_OBJECTS = /^node:internal\/(?:deps\/undici\/|webstreams\/)/;
/** Node's HTTP parser, request and response objects and headers. */
const NODE_HTTP = /^node:(?:_http_|internal\/http)/;

/**
 * The stages, most specific first: a frame that two rules match belongs to the first. The last
 * three take what the others leave: the product's other code, dependencies, Node.
 */
export const STAGES: readonly Stage[] = [
  { id: 'gc', label: 'garbage collection', matches: (frame) => frame.functionName === '(garbage collector)' },
  { id: 'program', label: 'V8 and native, unattributed ((program))', matches: (frame) => frame.functionName === '(program)' },
  { id: 'writes', label: "socket writes (React's destination, Node's streams)", matches: inFile(NODE_WRITES, /server\/render\/react-destination\.ts$/) },
  { id: 'node-http', label: 'Node http: parser, request, headers', matches: inFile(NODE_HTTP) },
  { id: 'compression', label: 'compression', matches: inFile(/server\/http\/compression\.ts$/, /^node:zlib$/, /node_modules\/negotiator\//) },
  {
    id: 'serialization',
    label: 'page data and deferred values (seroval)',
    matches: inFile(/node_modules\/seroval/, /server\/render\/(?:data-stream|deferred-data|deferred-scripts|sendable-values)\.tsx?$/),
  },
  { id: 'form-token', label: 'form token (csrf, HMAC)', matches: inFile(/server\/security\/(?:csrf|hmac-signer)\.ts$/) },
  { id: 'session', label: 'session cookie (HMAC, JSON)', matches: inFile(/server\/sessions\//, /scripts\/bench\/app-visitor-session\.ts$/) },
  {
    id: 'headers',
    label: 'CSP, nonce, security headers, response head',
    matches: inFile(/server\/security\//, /server\/http\/(?:response-head|html-headers|cache-control)\.ts$/, /server\/render\/document-headers\.ts$/, /node_modules\/helmet\//),
  },
  {
    id: 'log',
    label: 'completion log line (pino)',
    matches: inFile(/node_modules\/(?:pino|sonic-boom|pino-std-serializers|fast-redact|quick-format-unescaped|atomic-sleep|on-exit-leak-free)\//, /server\/observability\//),
  },
  { id: 'head', label: 'head', matches: inFile(/shared\/api\/head\.ts$/, /server\/render\/page-head\.ts$/) },
  { id: 'web-objects', label: 'web Request, Response, Headers and streams (undici)', matches: inFile(WEB_OBJECTS) },
  {
    id: 'loads',
    label: 'loads and their context',
    matches: (frame) =>
      inFile(/server\/render\/(?:run-loads|branch-loads|loads-in-order|route-run|app-context|request-context|page-lifecycle|abortable)\.tsx?$/)(frame) ||
      // A route's `load`, whatever number the bundler gave its name.
      (/^load\d*$/.test(frame.functionName) && /scripts\/bench\/|app\//.test(frame.source)) ||
      /scripts\/bench\/app-list-fixture\.ts$/.test(frame.source),
  },
  {
    id: 'layouts',
    label: 'layouts (route tree, layout components)',
    matches: inFile(/shared\/views\/route-tree\.tsx$/, /scripts\/bench\/layout-(?:root|section)\.tsx$/, /shared\/api\/route-hooks\.tsx$/),
  },
  {
    id: 'react',
    label: 'React render (react-dom, components)',
    matches: inFile(/node_modules\/react(?:-dom)?\//, /shared\//, /scripts\/bench\/.*\.tsx$/, /server\/render\/(?:page-document|react-destination)\.tsx?$/),
  },
  {
    id: 'express',
    label: 'Express and its router',
    matches: inFile(
      /node_modules\/(?:express|router|body-parser|finalhandler|send|serve-static|path-to-regexp|on-finished|parseurl|qs|type-is|content-type|mime-types|accepts|fresh|statuses|depd|encodeurl|escape-html|merge-descriptors|proxy-addr|range-parser|vary)\//,
    ),
  },
  { id: 'framework', label: 'framework, other (page handler, routing, lifecycle)', matches: inFile(/server\//, /app\//, /scripts\/bench\//) },
  { id: 'dependencies', label: 'other dependencies', matches: inFile(/node_modules\//) },
];

/** Time in no stage: Node's library and V8's builtins with nothing of anyone's above them. */
export const NODE_OTHER: Stage = { id: 'node', label: 'Node, other', matches: () => true };

/** A parser every stage calls (the cookie header's): its time is its caller's. */
const SHARED_HELPERS = /node_modules\/cookie\//;

/** Passed through to the caller: Node's library beyond its HTTP path, V8's builtins, shared helpers. */
function isTransparent(frame: SourceFrame, raw: CallFrame): boolean {
  if (frame.functionName.startsWith('(')) return false;
  if (raw.url === '' || SHARED_HELPERS.test(frame.source)) return true;
  return frame.source.startsWith('node:') && ![NODE_WRITES, NODE_HTTP, WEB_OBJECTS].some((pattern) => pattern.test(frame.source)) && frame.source !== 'node:zlib';
}

export interface StageTime {
  readonly stage: Stage;
  readonly micros: number;
}

export interface StageAttribution {
  /** In STAGES' order, then NODE_OTHER; every stage, with 0 where nothing was sampled. */
  readonly stages: readonly StageTime[];
  /** All sampled time but `(idle)`: the CPU the profile saw. */
  readonly busyMicros: number;
}

/** Each sample's duration: up to the next sample, the last up to the profile's end (as Chrome's developer tools count it). */
function sampleDurations(profile: CpuProfile): number[] {
  const times: number[] = [];
  let time = profile.startTime;
  for (const delta of profile.timeDeltas) {
    time += delta;
    times.push(time);
  }
  return times.map((at, index) => Math.max(0, (times[index + 1] ?? profile.endTime) - at));
}

/** Sums the profile's busy time by stage; `sourceOf` names the file a frame was written in. */
export function attributeStages(profile: CpuProfile, sourceOf: (frame: CallFrame) => string, stages: readonly Stage[] = STAGES): StageAttribution {
  const parent = new Map<number, number>();
  const byId = new Map<number, ProfileNode>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children) parent.set(child, node.id);
  }
  const stageOfNode = new Map<number, Stage>();
  function stageOf(id: number): Stage {
    const known = stageOfNode.get(id);
    if (known !== undefined) return known;
    let found: Stage = NODE_OTHER;
    for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
      const node = byId.get(current);
      if (node === undefined) break;
      const frame = { functionName: node.callFrame.functionName, source: sourceOf(node.callFrame) };
      if (frame.functionName === '(root)') break;
      if (isTransparent(frame, node.callFrame)) continue;
      found = stages.find((stage) => stage.matches(frame)) ?? NODE_OTHER;
      break;
    }
    stageOfNode.set(id, found);
    return found;
  }
  const totals = new Map<string, number>();
  let busyMicros = 0;
  const durations = sampleDurations(profile);
  profile.samples.forEach((id, index) => {
    if (byId.get(id)?.callFrame.functionName === '(idle)') return;
    const micros = durations[index] ?? 0;
    busyMicros += micros;
    const stage = stageOf(id);
    totals.set(stage.id, (totals.get(stage.id) ?? 0) + micros);
  });
  return { stages: [...stages, NODE_OTHER].map((stage) => ({ stage, micros: totals.get(stage.id) ?? 0 })), busyMicros };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function numbers(value: unknown, what: string): number[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'number')) throw new Error(`not a CPU profile: ${what} is not a list of numbers`);
  return value;
}

function profileNode(value: unknown): ProfileNode {
  if (!isRecord(value) || typeof value.id !== 'number' || !isRecord(value.callFrame)) throw new Error('not a CPU profile: a node without id or callFrame');
  const { functionName, url, lineNumber, columnNumber } = value.callFrame;
  if (typeof functionName !== 'string' || typeof url !== 'string' || typeof lineNumber !== 'number' || typeof columnNumber !== 'number') {
    throw new Error(`not a CPU profile: node ${value.id} has a malformed callFrame`);
  }
  return { id: value.id, callFrame: { functionName, url, lineNumber, columnNumber }, children: value.children === undefined ? [] : numbers(value.children, 'children') };
}

/** A `.cpuprofile` file's text, checked. */
export function parseCpuProfile(text: string): CpuProfile {
  const value: unknown = JSON.parse(text);
  if (!isRecord(value) || !Array.isArray(value.nodes) || typeof value.startTime !== 'number' || typeof value.endTime !== 'number') {
    throw new Error('not a CPU profile: no nodes, startTime or endTime');
  }
  const samples = numbers(value.samples, 'samples');
  const timeDeltas = numbers(value.timeDeltas, 'timeDeltas');
  if (samples.length !== timeDeltas.length) throw new Error('not a CPU profile: samples and timeDeltas differ in length');
  return { nodes: value.nodes.map(profileNode), startTime: value.startTime, endTime: value.endTime, samples, timeDeltas };
}
