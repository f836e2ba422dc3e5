// The part of react-refresh's runtime (a CommonJS package without types) that src/dev/hmrRuntime.ts uses.
declare module 'react-refresh/runtime' {
  export function injectIntoGlobalHook(globalObject: object): void;
  export function register(type: unknown, id: string): void;
  export function setSignature(type: unknown, key: string, forceReset?: boolean, getCustomHooks?: () => unknown[]): void;
  export function performReactRefresh(): unknown;
}
