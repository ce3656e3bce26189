/**
 * The Requests view as data: history items grouped Running / Today / Yesterday / Earlier,
 * filtered by endpoint and a search, each group shown a page at a time, and for every update
 * the smallest set of nodes that changed (so the view refreshes only those).
 * Pure: the VS Code tree provider maps this 1:1 onto TreeItems.
 */
import { findEndpoint } from '../spec/catalog';
import { clock, dayAndClock, endpointTitle, hasShortenedList, inputSummary } from './format';
import type { HistoryItem } from './merge';
import { isZipItem } from '../results/kinds';
import { fmtCredits } from '../numberText';

export type GroupId = 'running' | 'today' | 'yesterday' | 'earlier';

export const GROUPS: readonly { readonly id: GroupId; readonly label: string; readonly expanded: boolean }[] = [
  { id: 'running', label: 'Running', expanded: true },
  { id: 'today', label: 'Today', expanded: true },
  { id: 'yesterday', label: 'Yesterday', expanded: true },
  { id: 'earlier', label: 'Earlier', expanded: false },
];

export interface HistoryFilter {
  /** Only this endpoint. */
  readonly endpointId?: string;
  /** Case-insensitive words, all of which must appear in the title, summary, requestId or inputs. */
  readonly search?: string;
}

/** What an update changed: the whole tree (root), whole groups, or single items. */
export interface ModelChange {
  readonly root: boolean;
  readonly groups: readonly GroupId[];
  readonly items: readonly string[];
}

const NONE: ModelChange = { root: false, groups: [], items: [] };

/** Start of the local day holding ms. */
function startOfDay(ms: number): number {
  const d = new Date(ms);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** Where today and yesterday start (local days), for grouping many items against one clock. */
function dayBounds(nowMs: number): { today: number; yesterday: number } {
  const today = startOfDay(nowMs);
  const d = new Date(today);
  d.setDate(d.getDate() - 1);
  return { today, yesterday: d.getTime() };
}

/** Which group an item belongs to, as of nowMs (local days). */
export function groupOf(item: HistoryItem, nowMs: number, bounds = dayBounds(nowMs)): GroupId {
  if (item.status === 'running') return 'running';
  if (item.createdAt >= bounds.today) return 'today';
  return item.createdAt >= bounds.yesterday ? 'yesterday' : 'earlier';
}

/** What a row shows, besides its label. */
interface RowText {
  readonly label: string;
  readonly description: string;
}

/**
 * A row's label and description: "Top Traders of Tokens" · "3 tokens · 300 credits · 14:05".
 * The cost comes before the time: in a narrow sidebar the end of the line is cut first.
 */
export function rowText(item: HistoryItem, group: GroupId, nowMs: number): RowText {
  const when = group === 'earlier' ? dayAndClock(item.createdAt, nowMs) : clock(item.createdAt);
  const parts = [inputSummary(item.inputs)];
  if (item.cost !== undefined) parts.push(fmtCredits(item.cost));
  parts.push(when);
  return { label: endpointTitle(item.endpointId), description: parts.join(' · ') };
}

/** A row's status, for its icon: a spinner while pending or downloading, an error when failed. */
export type RowIcon = 'running' | 'downloading' | 'failed' | 'downloadFailed' | 'onDisk' | 'onServer';

export function rowIcon(item: HistoryItem): RowIcon {
  if (item.status === 'running') return 'running';
  if (item.status === 'failed') return 'failed';
  if (item.local === 'downloading') return 'downloading';
  if (item.local === 'downloadFailed') return 'downloadFailed';
  return item.resultPath ? 'onDisk' : 'onServer';
}

/** A row's context value, `request running|done|failed [zip] [disk] [url] [rerun]`, for `viewItem =~ /\bdone\b/` in menus. */
export function contextValueOf(item: HistoryItem): string {
  const parts = ['request', item.status];
  if (isZipItem(item)) parts.push('zip');
  if (item.resultPath) parts.push('disk');
  if (item.url) parts.push('url');
  const ep = findEndpoint(item.endpointId);
  if (ep?.family === 'queued' && !hasShortenedList(item.inputs)) parts.push('rerun');
  return parts.join(' ');
}

/**
 * Whether two records of one request show the same row (compared field by field: no strings built for
 * 5,000 rows). A request's inputs never change; a local record replacing a server one changes `local`.
 */
function sameRow(a: HistoryItem, b: HistoryItem): boolean {
  return (
    a.status === b.status &&
    a.local === b.local &&
    a.resultPath === b.resultPath &&
    a.url === b.url &&
    a.error === b.error &&
    a.cost === b.cost &&
    a.completedAt === b.completedAt &&
    a.endpointId === b.endpointId &&
    a.createdAt === b.createdAt
  );
}

export class HistoryModel {
  private items = new Map<string, HistoryItem>();
  /** Visible (filtered) items by group, newest first. */
  private lists = new Map<GroupId, HistoryItem[]>();
  /** The group of each visible item. */
  private placed = new Map<string, GroupId>();
  private readonly limits = new Map<GroupId, number>();
  private haystacks = new Map<string, string>();
  private filterValue: HistoryFilter = {};
  private nowMs = 0;
  private total = 0;

  constructor(readonly pageSize = 200) {}

  get filter(): HistoryFilter {
    return this.filterValue;
  }

  /** Whether a filter or search is in force. */
  get filtered(): boolean {
    return Boolean(this.filterValue.endpointId || this.filterValue.search?.trim());
  }

  /** Items in the history (before filtering). */
  get size(): number {
    return this.total;
  }

  /** Items that pass the filter. */
  get shown(): number {
    return this.placed.size;
  }

  get(requestId: string): HistoryItem | undefined {
    return this.items.get(requestId);
  }

  /** Every item, newest first (before filtering). */
  all(): HistoryItem[] {
    return [...this.items.values()];
  }

  /** The groups that hold something, in order, with their counts. */
  groups(): { id: GroupId; label: string; count: number; expanded: boolean }[] {
    return GROUPS.filter((g) => (this.lists.get(g.id)?.length ?? 0) > 0).map((g) => ({ ...g, count: this.lists.get(g.id)?.length ?? 0 }));
  }

  /** The group's first page(s), and how many are left after them. */
  page(group: GroupId): { items: readonly HistoryItem[]; more: number } {
    const list = this.lists.get(group) ?? [];
    const limit = this.limits.get(group) ?? this.pageSize;
    return { items: list.length > limit ? list.slice(0, limit) : list, more: Math.max(0, list.length - limit) };
  }

  /** The group a visible item is in. */
  groupOfItem(requestId: string): GroupId | undefined {
    return this.placed.get(requestId);
  }

  /** Shows one more page of group. */
  showMore(group: GroupId): ModelChange {
    this.limits.set(group, (this.limits.get(group) ?? this.pageSize) + this.pageSize);
    return { root: false, groups: [group], items: [] };
  }

  /** Sets the filter; the whole tree changes. */
  setFilter(f: HistoryFilter): ModelChange {
    this.filterValue = { endpointId: f.endpointId || undefined, search: f.search?.trim() || undefined };
    this.limits.clear();
    this.place();
    return { root: true, groups: [], items: [] };
  }

  /** The endpoints present in the history, with how many requests each, most used first. */
  endpointsInHistory(): { endpointId: string; count: number }[] {
    const counts = new Map<string, number>();
    for (const i of this.items.values()) counts.set(i.endpointId, (counts.get(i.endpointId) ?? 0) + 1);
    return [...counts].map(([endpointId, count]) => ({ endpointId, count })).sort((a, b) => b.count - a.count || a.endpointId.localeCompare(b.endpointId));
  }

  /**
   * Replaces the items (merged, newest first) as of nowMs and says what changed: a group whose
   * membership changed (an item came, left, or moved from Running to Today), the root when the set
   * of non-empty groups changed, and otherwise single rows whose content changed.
   */
  update(items: readonly HistoryItem[], nowMs: number): ModelChange {
    const oldPlaced = this.placed;
    const oldGroups = this.groups().map((g) => g.id).join();
    const oldItems = this.items;
    const dayChanged = startOfDay(nowMs) !== startOfDay(this.nowMs);
    this.nowMs = nowMs;
    this.items = new Map();
    const changedItems: string[] = [];
    for (const i of items) {
      this.items.set(i.requestId, i);
      const old = oldItems.get(i.requestId);
      if (old !== undefined && old !== i && !sameRow(old, i)) {
        changedItems.push(i.requestId);
        this.haystacks.delete(i.requestId);
      }
    }
    this.total = this.items.size;
    for (const id of this.haystacks.keys()) if (!this.items.has(id)) this.haystacks.delete(id);
    this.place();
    if (dayChanged || oldGroups !== this.groups().map((g) => g.id).join()) return { root: true, groups: [], items: [] };
    const groups = new Set<GroupId>();
    for (const [id, g] of this.placed) {
      const was = oldPlaced.get(id);
      if (was !== g) {
        groups.add(g);
        if (was) groups.add(was);
      }
    }
    for (const [id, g] of oldPlaced) if (!this.placed.has(id)) groups.add(g);
    const items2 = changedItems.filter((id) => {
      const g = this.placed.get(id);
      return g !== undefined && !groups.has(g);
    });
    if (groups.size === 0 && items2.length === 0) return NONE;
    return { root: false, groups: [...groups], items: items2 };
  }

  private matches(i: HistoryItem, endpointId: string | undefined, words: readonly string[]): boolean {
    if (endpointId && i.endpointId !== endpointId) return false;
    if (words.length === 0) return true;
    let hay = this.haystacks.get(i.requestId);
    if (hay === undefined) {
      hay = `${endpointTitle(i.endpointId)} ${i.endpointId} ${i.requestId} ${inputSummary(i.inputs)} ${i.status} ${JSON.stringify(i.inputs)} ${i.error ?? ''}`.toLowerCase();
      this.haystacks.set(i.requestId, hay);
    }
    return words.every((w) => hay.includes(w));
  }

  private place(): void {
    const { endpointId, search } = this.filterValue;
    const words = (search ?? '').toLowerCase().split(/\s+/u).filter(Boolean);
    const lists = new Map<GroupId, HistoryItem[]>(GROUPS.map((g) => [g.id, []]));
    const placed = new Map<string, GroupId>();
    const bounds = dayBounds(this.nowMs);
    const filtering = Boolean(endpointId) || words.length > 0;
    for (const i of this.items.values()) {
      if (filtering && !this.matches(i, endpointId, words)) continue;
      const g = groupOf(i, this.nowMs, bounds);
      lists.get(g)?.push(i);
      placed.set(i.requestId, g);
    }
    this.lists = lists;
    this.placed = placed;
  }
}
