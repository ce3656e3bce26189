/** A `.wat` file imports as its WebAssembly module's bytes: esbuild.mjs compiles it at build time (wabt's wat2wasm). */
declare module '*.wat' {
  const bytes: Uint8Array;
  export default bytes;
}
