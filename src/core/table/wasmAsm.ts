/**
 * Just enough of a WebAssembly assembler to write one small kernel readably: i32 locals, a
 * handful of instructions, and structured control with named labels (branch depths are worked
 * out here, which is where hand-written wasm usually goes wrong). No dependency, no build step.
 */

/** Unsigned LEB128. */
function uleb(n: number): number[] {
  const out: number[] = [];
  let v = n >>> 0;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
}

/** Signed LEB128 of a 32-bit integer. */
function sleb(n: number): number[] {
  const out: number[] = [];
  let v = n | 0;
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    const done = (v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

const I32 = 0x7f;
const EMPTY = 0x40;

/** Body of one function: instructions appended in order; labels name the enclosing blocks. */
export class FunctionBody {
  private readonly code: number[] = [];
  private readonly labels: (string | undefined)[] = [];

  constructor(
    readonly params: number,
    private readonly locals: number,
  ) {}

  localGet(i: number): this {
    return this.op(0x20, ...uleb(i));
  }
  localSet(i: number): this {
    return this.op(0x21, ...uleb(i));
  }
  localTee(i: number): this {
    return this.op(0x22, ...uleb(i));
  }
  const(n: number): this {
    return this.op(0x41, ...sleb(n));
  }
  /** i32.load8_u at the address on the stack. */
  load8(): this {
    return this.op(0x2d, 0, 0);
  }
  /** i32.store: address, value on the stack. */
  store(): this {
    return this.op(0x36, 2, 0);
  }
  eqz(): this {
    return this.op(0x45);
  }
  eq(): this {
    return this.op(0x46);
  }
  ne(): this {
    return this.op(0x47);
  }
  ltU(): this {
    return this.op(0x49);
  }
  geU(): this {
    return this.op(0x4f);
  }
  add(): this {
    return this.op(0x6a);
  }
  sub(): this {
    return this.op(0x6b);
  }
  and(): this {
    return this.op(0x71);
  }
  or(): this {
    return this.op(0x72);
  }
  shl(): this {
    return this.op(0x74);
  }
  shrU(): this {
    return this.op(0x76);
  }
  /** Trailing zero bits. */
  ctz(): this {
    return this.op(0x68);
  }
  popcnt(): this {
    return this.op(0x69);
  }
  /** v128.load of the 16 bytes at the address on the stack (unaligned is fine). */
  v128Load(): this {
    return this.op(0xfd, 0x00, 0, 0);
  }
  /** i8x16.splat of the i32 on the stack. */
  i8x16Splat(): this {
    return this.op(0xfd, 0x0f);
  }
  i8x16Eq(): this {
    return this.op(0xfd, 0x23);
  }
  /** One bit per byte lane: its top bit. */
  i8x16Bitmask(): this {
    return this.op(0xfd, 0x64);
  }

  block(label?: string): this {
    this.labels.push(label);
    return this.op(0x02, EMPTY);
  }
  loop(label?: string): this {
    this.labels.push(label);
    return this.op(0x03, EMPTY);
  }
  /** `if` on the i32 on the stack. */
  if(): this {
    this.labels.push(undefined);
    return this.op(0x04, EMPTY);
  }
  /** The other arm of the innermost `if`. */
  else(): this {
    return this.op(0x05);
  }
  end(): this {
    if (this.labels.length === 0) throw new Error('end without a block');
    this.labels.pop();
    return this.op(0x0b);
  }
  /** Branch to `label`: the end of a block, the start of a loop. */
  br(label: string): this {
    return this.op(0x0c, ...uleb(this.depth(label)));
  }
  brIf(label: string): this {
    return this.op(0x0d, ...uleb(this.depth(label)));
  }

  /** The encoded body (locals, code, final end). */
  encode(): number[] {
    if (this.labels.length !== 0) throw new Error('unclosed block');
    const locals = this.locals > 0 ? [1, ...uleb(this.locals), I32] : [0];
    const body = [...locals, ...this.code, 0x0b];
    return [...uleb(body.length), ...body];
  }

  private depth(label: string): number {
    const i = this.labels.lastIndexOf(label);
    if (i < 0) throw new Error(`no label ${label}`);
    return this.labels.length - 1 - i;
  }

  private op(...bytes: number[]): this {
    this.code.push(...bytes);
    return this;
  }
}

function section(id: number, content: number[]): number[] {
  return [id, ...uleb(content.length), ...content];
}

function name(s: string): number[] {
  const bytes = [...Buffer.from(s, 'utf8')];
  return [...uleb(bytes.length), ...bytes];
}

/** A module that imports memory `env.memory` (of `pages` pages) and exports `fn` as `exportName`; all i32. */
export function moduleBytes(fn: FunctionBody, exportName: string, pages: number): Uint8Array {
  const type = [0x60, ...uleb(fn.params), ...Array<number>(fn.params).fill(I32), 1, I32];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, ...type]),
    ...section(2, [1, ...name('env'), ...name('memory'), 0x02, 0x00, ...uleb(pages)]),
    ...section(3, [1, 0]),
    ...section(7, [1, ...name(exportName), 0x00, 0]),
    ...section(10, [1, ...fn.encode()]),
  ]);
}
