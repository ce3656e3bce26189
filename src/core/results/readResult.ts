/**
 * How a result's rows and addresses are read by every feature that is not the table itself: "Use
 * Result as Input to…", the "from a previous result" list source, and the checks of both (issue 22
 * item 6). One way: the table engine in a worker thread (RemoteTable), so the extension host's
 * thread only posts and receives, and no file is ever held as one string. The worker reads the
 * header and first rows (to find the address columns: columnKind.ts), then counts a column's
 * distinct addresses itself (addresses.ts) and sends back at most the list a call can take.
 * Address sets (addressSets.ts readInWorker) and the table session read through the same worker.
 */
import { checkedAddresses, type Chain, type DistinctAddresses } from '../spec/addresses';
import { addressRole, pickAddressColumnOf, SAMPLE_ROWS, type AddressColumn, type AddressRole, type ListWant } from '../table/columnKind';
import { RemoteTable, type PackedAddresses } from '../table/remoteTable';
import type { ParsedList } from '../spec/listParse';
import { isPackedList, type PackedList } from '../spec/packedList';
import type { ExportResult } from '../table/exportView';
import type { SortKey, TaskOptions, ViewQuery } from '../table/types';
import { addressFilesOf } from './files';

export interface ReadOptions extends TaskOptions {
  /** The worker bundle (default: dist/tableWorker.js beside the extension bundle). */
  readonly workerFile?: string;
  /** Told the worker's thread id for each file opened (tests check it is not this thread). */
  readonly onThread?: (threadId: number) => void;
  /**
   * Brings the first rows to this thread (`sample`: a cell's result shown in a notebook); default
   * false. The address columns are found in the worker either way (ResultReader.chains): a
   * 640-column result's sample is 32,000 strings made on the host, and the garbage collection
   * they bring inside a person's action (issue 34 item 4).
   */
  readonly sample?: boolean;
  /**
   * Judges each column's chain in the worker (`chains`, `firstRow`, the address columns); default
   * true. False for a reader that only goes by the header's names (a pipeline's filter step): the
   * worker is not asked, and its first rows' 640 cells are not read nor the first row's sent here.
   */
  readonly chains?: boolean;
}

/** One address column of a result: where it is, its chain and whose addresses its name says it holds. */
interface ResultAddressColumn {
  readonly column: number;
  readonly name: string;
  readonly chain: Chain;
  /** From its name (columnKind.ts addressRole) and the producing endpoint's hint; undefined when neither says. */
  readonly role: AddressRole | undefined;
}

/**
 * Cells of the first rows sent to this thread in one message, at most. A result of 640 metric
 * columns gave 50 rows × 640 = 32,000 cells in one message, and deserialising it held the host's
 * loop 20–37 ms at load 13 (issue 34 item 4); windows of a few columns each are short turns.
 */
export const SAMPLE_CELLS = 2_000;

/** The first SAMPLE_ROWS rows, every column, read a few columns a message and put back together as rows. */
async function firstRows(table: RemoteTable, signal?: AbortSignal): Promise<string[][]> {
  const rows = Math.min(table.rowCount, SAMPLE_ROWS);
  const width = table.columns.length;
  if (rows === 0 || width === 0) return [];
  const out: string[][] = Array.from({ length: rows }, () => new Array<string>(width));
  const step = Math.max(1, Math.floor(SAMPLE_CELLS / rows));
  for (let from = 0; from < width; from += step) {
    const columns = Array.from({ length: Math.min(width, from + step) - from }, (_, i) => from + i);
    const { cells } = await table.window(0, rows, columns, signal);
    cells.forEach((row, r) => row.forEach((cell, i) => ((out[r] as string[])[from + i] = cell)));
  }
  return out;
}

/** A result file open in a table worker: its header, first rows, address columns and a column's addresses or text. */
export class ResultReader {
  private constructor(
    readonly file: string,
    private readonly table: RemoteTable,
    /** Each column's chain (null: not an address column), judged in the worker on the first SAMPLE_ROWS rows by the one classifier; none when opened with `chains: false`. */
    readonly chains: readonly (Chain | null)[],
    /** The first row's cells (a column picker's preview). */
    readonly firstRow: readonly string[],
    /** The first SAMPLE_ROWS rows (all columns) when opened with `sample: true`, else none. */
    readonly sample: readonly (readonly string[])[],
  ) {}

  /** Opens `file` (.csv, .txt, .json) in a worker and waits until every row is indexed. */
  static async open(file: string, options: ReadOptions = {}): Promise<ResultReader> {
    const table = await RemoteTable.open(file, { signal: options.signal, prepareColumns: false, ...(options.workerFile ? { workerFile: options.workerFile } : {}) });
    try {
      options.onThread?.(table.threadId);
      await table.indexed;
      const { chains, firstRow } = options.chains === false ? { chains: [], firstRow: [] } : await table.columnChains({ signal: options.signal });
      return new ResultReader(file, table, chains, firstRow, options.sample === true ? await firstRows(table, options.signal) : []);
    } catch (e) {
      await table.close();
      throw e;
    }
  }

  get columns(): readonly string[] {
    return this.table.columns;
  }

  get rowCount(): number {
    return this.table.rowCount;
  }

  /** The columns that hold addresses (the one classifier over the first rows, in the worker), in file order. */
  addressColumns(hint?: AddressRole): ResultAddressColumn[] {
    return this.columns.flatMap((name, column) => {
      const chain = this.chains[column];
      return chain ? [{ column, name, chain, role: addressRole(name, hint) }] : [];
    });
  }

  /** The address column a list is taken from (columnKind.ts pickAddressColumn's rule, on the worker's judgement), or undefined. */
  addressColumn(options: { chain?: Chain; want?: ListWant } = {}): AddressColumn | undefined {
    return pickAddressColumnOf(this.columns, this.chains, options);
  }

  /** The distinct addresses of `column` (counted in the worker), at most `limit` of them sent here. */
  addresses(column: number, chain: Chain, options: TaskOptions & { limit?: number } = {}): Promise<DistinctAddresses> {
    return this.table.addresses(column, chain, options);
  }

  /** As `addresses`, a long list kept one packed string on this thread (spec/packedList.ts), a short one strings. */
  addressesPacked(column: number, chain: Chain, options: TaskOptions & { limit?: number } = {}): ReturnType<RemoteTable['addressesPacked']> {
    return this.table.addressesPacked(column, chain, options);
  }

  /** As `addresses`, the list left packed as it crossed: for a step that only writes or counts it (a pipeline's take step). */
  packedAddresses(column: number, chain: Chain, options: TaskOptions & { limit?: number } = {}): Promise<PackedAddresses> {
    return this.table.packedAddresses(column, chain, options);
  }

  /** Every cell of `column`, in file order (the worker's typed pass; never the file as one string). */
  columnText(column: number, options: TaskOptions = {}): Promise<readonly string[]> {
    return this.table.columnText(column, options);
  }

  /**
   * `column`'s cells parsed as a list of addresses of `chain` in the worker (a list source: "from a
   * file", "from a previous result"): the cells never cross, only the valid list and the bad entries.
   */
  addressList(column: number, chain: Chain, options: TaskOptions = {}): Promise<ParsedList> {
    return this.table.addressList(column, chain, options);
  }

  /**
   * The first `top` rows' cells of `columns`, sorted in the worker by `sort` first (a pipeline's
   * "top N by a column"): only those rows cross to this thread.
   */
  async topRows(columns: readonly number[], top: number, sort: readonly SortKey[], options: TaskOptions = {}): Promise<readonly (readonly string[])[]> {
    if (sort.length > 0) await this.table.apply({ sort }, options);
    const n = Math.min(top, this.table.view.length);
    return n > 0 ? (await this.table.window(0, n, columns, options.signal)).cells : [];
  }

  /**
   * Rows [first, first + count) in file order, cells of the first `columns` columns (all by
   * default): one page of a pipeline cell's result for the notebook renderer; only that page crosses.
   */
  async page(first: number, count: number, options: TaskOptions & { columns?: number } = {}): Promise<readonly (readonly string[])[]> {
    const width = Math.min(options.columns ?? this.columns.length, this.columns.length);
    if (count <= 0 || first >= this.rowCount || width === 0) return [];
    return (await this.table.window(first, Math.min(first + count, this.rowCount), Array.from({ length: width }, (_, i) => i), options.signal)).cells;
  }

  /**
   * The rows that pass `query`'s filters, written to `target` as CSV by the worker (the table's own
   * filter and export: a pipeline's filter step keeps what the table would show). Plain data: the
   * cells are written as they are, with "\n" line ends, for the next step to read.
   */
  async exportFiltered(query: ViewQuery, target: string, options: TaskOptions = {}): Promise<ExportResult> {
    await this.table.apply(query, options);
    return this.table.export(target, { ...options, neutraliseFormulas: false, lineEnding: '\n' });
  }

  close(): Promise<void> {
    return this.table.close();
  }
}

/** One list that a result offers: an address column's distinct addresses (merged over the files of an extracted .zip). */
interface ResultList extends Omit<DistinctAddresses, 'addresses'> {
  /** Distinct, normalised, in first-seen order, at most the limit; a long one packed (spec/packedList.ts), marked checked. */
  readonly addresses: string[] | PackedList;
  /** The column's name (the first file's, for a folder). */
  readonly column: string;
  readonly chain: Chain;
  readonly role: AddressRole | undefined;
  /** True when `distinct` is a floor: a folder's files were each cut at the limit before merging. */
  readonly atLeast: boolean;
}

/**
 * The lists a result offers, one per address column name (and chain), each with its distinct
 * addresses (at most `limit`) and count: what "use as input" ranks its endpoints by. A folder (an
 * extracted .zip) merges its files' columns of the same name. An empty array when no column holds
 * addresses.
 */
export async function readResultLists(p: string, options: ReadOptions & { limit?: number; hint?: AddressRole } = {}): Promise<ResultList[]> {
  const files = await addressFilesOf(p);
  const limit = options.limit ?? Infinity;
  // `seen` is built only when a second file of a folder brings the same column: a Set of 100,000
  // addresses is one long turn of the host's loop (issue 34 item 4), and one file needs none.
  const merged = new Map<string, { list: ResultList; seen?: Set<string> }>();
  // One file's list is kept as it crossed, packed when long; a folder's are merged as strings (rare).
  const one = files.length === 1;
  for (const f of files) {
    const reader = await ResultReader.open(f, options);
    try {
      for (const col of reader.addressColumns(options.hint)) {
        const got = one ? await reader.addressesPacked(col.column, col.chain, { signal: options.signal, limit }) : await reader.addresses(col.column, col.chain, { signal: options.signal, limit });
        const key = `${col.chain}\u0000${col.name}`;
        const had = merged.get(key);
        if (!had) {
          merged.set(key, { list: { ...got, column: col.name, chain: col.chain, role: col.role, atLeast: got.distinct > got.addresses.length && files.length > 1 } });
          continue;
        }
        const hadList = isPackedList(had.list.addresses) ? had.list.addresses.toArray() : had.list.addresses;
        const seen = (had.seen ??= new Set(hadList));
        // A folder's files merged in order, once each: a few lists of at most `limit`, so this loop is short.
        const addresses = [...hadList];
        for (const a of isPackedList(got.addresses) ? got.addresses.toArray() : got.addresses) {
          if (seen.has(a)) continue;
          seen.add(a);
          if (addresses.length < limit) addresses.push(a);
        }
        had.list = {
          ...had.list,
          addresses,
          distinct: seen.size,
          skipped: had.list.skipped + got.skipped,
          atLeast: had.list.atLeast || got.distinct > got.addresses.length,
        };
      }
    } finally {
      await reader.close();
    }
  }
  // Each list is distinctAddresses' output (the worker's), or such lists merged through a Set:
  // marked so that the price step's input check takes it as it is (addresses.ts checkedAddresses).
  return [...merged.values()].map((m) => ({ ...m.list, addresses: isPackedList(m.list.addresses) ? m.list.addresses : (checkedAddresses(m.list.addresses, m.list.chain) as string[]) }));
}

/** Opens a result file in a worker for `use`, and closes it after (the list source: its columns, a preview, then the picked column's cells). */
export async function withResultReader<T>(file: string, use: (reader: ResultReader) => Promise<T>, options: ReadOptions = {}): Promise<T> {
  const reader = await ResultReader.open(file, options);
  try {
    return await use(reader);
  } finally {
    await reader.close();
  }
}
