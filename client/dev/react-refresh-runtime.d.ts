/** The part of React's Fast Refresh runtime (react-refresh/runtime, which ships no types) the dev bundle uses. */
declare module 'react-refresh/runtime' {
  export function injectIntoGlobalHook(globalObject: typeof globalThis): void;
  export function register(type: unknown, id: string): void;
  export function createSignatureFunctionForTransform(): (type: unknown, key: string, forceReset?: boolean, getCustomHooks?: () => unknown[]) => unknown;
  export function isLikelyComponentType(type: unknown): boolean;
  export function performReactRefresh(): unknown;
}
