/**
 * The fixed part of an exported pipeline script (issue 24 item 3): the Python that every export
 * shares. It holds no name and no value of any pipeline: those arrive as data (one Python literal,
 * DATA, whose strings exportScript.ts writes through pyString), so nothing a person typed is ever
 * code. Each step kind is one Python function (`step_call`, `step_take`, `step_filter`, `step_sets`), registered
 * in STEP_KINDS beside its generator in exportScript.ts.
 *
 * What it does, as the editor does it:
 * - inputs are checked by the catalog's field rules, carried as data (FIELD CHECKS below, one per
 *   field kind of src/core/spec/fields.ts), before anything is sent;
 * - the plan (computed by plan.ts at export) is printed; --max-credits refuses to start above its
 *   total, and no call may cost more than its plan line at run time;
 * - a queued job is submitted once, polled about every 5 s (GET /request/{id}) and downloaded;
 *   a submit with no clear answer is looked up in the free request history (GET /requests) before
 *   any retry, as src/core/jobs/reconcile.ts does, so nothing is paid twice;
 * - results go into `<name>.results/` beside the script with the editor's record files.
 */

/** The Python runtime; the data section is appended before `if __name__ == "__main__":`. */
export const SCRIPT_RUNTIME = String.raw`
import argparse
import csv
import json
from decimal import Decimal
import math
import os
import re
import shutil
import sys
import time
import urllib.parse
import zipfile
from datetime import datetime, timezone

try:
    import requests
except ImportError:
    sys.exit("This script needs the requests package: python3 -m pip install requests")

POLL_SECONDS = float(os.environ.get("WA_POLL_SECONDS") or 5)
ACK_TIMEOUT = 110
HISTORY_WAIT = float(os.environ.get("WA_HISTORY_WAIT_SECONDS") or 30)
HISTORY_EVERY = min(3.0, max(0.05, POLL_SECONDS))
CLOCK_SKEW = 120


class Stop(Exception):
    """A step that cannot go on: the run stops, the script exits non-zero."""


def say(text):
    print(text, flush=True)


def fmt(n):
    return f"{n:,} credits"


# ---- the connection: the key from WA_API_KEY, sent only to the base URL's origin ----

def base_url():
    base = (os.environ.get("WA_BASE_URL") or DATA["baseUrl"]).rstrip("/")
    if not re.match(DATA["safeUrl"], base):
        raise Stop("The base URL must be https (or http on this machine): " + base)
    return base


def origin_of(url):
    p = urllib.parse.urlsplit(url)
    return f"{p.scheme}://{p.netloc}"


class Api:
    def __init__(self, base, key):
        self.base = base
        self.origin = origin_of(base)
        self.key = key
        self.session = requests.Session()

    def headers(self, body):
        h = dict(DATA["headers"])
        h["api_key"] = self.key
        if body:
            h["content-type"] = "application/json"
        return h

    def send(self, method, path, query=None, body=None, timeout=30):
        """One request under the base URL; a request that carries the key never follows a redirect."""
        data = None if body is None else json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        r = self.session.request(method, self.base + path, params=query or None, data=data, headers=self.headers(data is not None), timeout=timeout, allow_redirects=False)
        return r

    def json(self, method, path, query=None, body=None, timeout=30):
        r = self.send(method, path, query, body, timeout)
        if r.status_code >= 300:
            raise Stop(f"{method} {path} answered HTTP {r.status_code}: {r.text[:300]}")
        return r.json()

    def download(self, url, dest):
        if not re.match(DATA["safeUrl"], url):
            raise Stop("Not downloaded: the file URL is not https (or http on this machine): " + url)
        mine = url.startswith(self.origin + "/")
        for attempt in range(4):
            try:
                with self.session.get(url, headers={"api_key": self.key} if mine else {}, allow_redirects=not mine, stream=True, timeout=120) as r:
                    if r.status_code >= 300:
                        raise Stop(f"The download answered HTTP {r.status_code}.")
                    with open(dest, "wb") as f:
                        for chunk in r.iter_content(1 << 16):
                            f.write(chunk)
                return
            except requests.RequestException:
                # A download is free and can be tried again.
                if attempt == 3:
                    raise
                time.sleep(1 + attempt)


# ---- FIELD CHECKS: the catalog's field rules (src/core/spec/fields.ts), one function per field kind ----

def is_address(v, chain):
    return isinstance(v, str) and re.fullmatch(DATA["addressPatterns"][chain], v) is not None


def norm_address(v, chain):
    return v.lower() if chain == "alt" else v


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool) or isinstance(v, float) and v.is_integer()


def is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def check_address(f, v):
    if not isinstance(v, str) or not is_address(v.strip(), f["chain"]):
        raise ValueError(f["rule"])
    return norm_address(v.strip(), f["chain"])


def check_address_list(f, v):
    if not isinstance(v, list):
        raise ValueError(f["rule"])
    if not v:
        raise ValueError(f["rule"] + " This list is empty.")
    out = []
    seen = set()
    for item in v:
        a = item.strip() if isinstance(item, str) else item
        if not is_address(a, f["chain"]):
            raise ValueError(f"{f['rule']} {json.dumps(str(item)[:24])} is not a valid address.")
        a = norm_address(a, f["chain"])
        if a not in seen:
            seen.add(a)
            out.append(a)
    if len(out) < f.get("min", 1) or len(out) > f["max"]:
        raise ValueError(f"{f['rule']} This list has {len(out):,} distinct addresses.")
    return out


def check_integer(f, v):
    if not is_int(v) or v < f["min"] or v > f["max"]:
        raise ValueError(f["rule"])
    return int(v)


def check_number(f, v):
    if not is_num(v) or ("min" in f and v < f["min"]) or ("max" in f and v > f["max"]):
        raise ValueError(f["rule"])
    return v


def check_timestamp(f, v):
    if not is_int(v) or v < DATA["unix"][0] or v > DATA["unix"][1]:
        raise ValueError(f["rule"])
    return int(v)


def check_enum(f, v):
    if v not in f["options"]:
        raise ValueError(f["rule"])
    return v


def check_text(f, v):
    if not isinstance(v, str):
        raise ValueError(f["rule"])
    v = v.strip()
    if len(v) < f["min"] or len(v) > f["max"] or ("pattern" in f and re.fullmatch(f["pattern"], v) is None):
        raise ValueError(f["rule"])
    return v


def check_text_list(f, v):
    if not isinstance(v, list) or not all(isinstance(x, str) and x for x in v) or len(v) < f["min"] or len(v) > f["max"]:
        raise ValueError(f["rule"])
    if "options" in f and any(x not in f["options"] for x in v):
        raise ValueError(f["rule"])
    return v


def check_token_windows(f, v):
    if not isinstance(v, list) or len(v) < f["min"] or len(v) > f["max"]:
        raise ValueError(f["rule"])
    out = []
    seen = set()
    for i, t in enumerate(v, 1):
        if not isinstance(t, dict) or set(t) - {"token", "from", "to"}:
            raise ValueError(f["rule"])
        token = t.get("token")
        if not isinstance(token, str) or not is_address(token.strip(), f["chain"]):
            raise ValueError(f"Token {i} is not a valid address. {f['rule']}")
        for k in ("from", "to"):
            if not is_int(t.get(k)) or not DATA["unix"][0] <= t[k] <= DATA["unix"][1]:
                raise ValueError(f"Token {i}: the window {'start' if k == 'from' else 'end'} ({k}) must be a Unix time in seconds between 2010 and 2100.")
        if t["from"] >= t["to"]:
            raise ValueError(f"Token {i}: the window ends before it starts.")
        if token.strip() in seen:
            raise ValueError(f"Token {i} is listed twice.")
        seen.add(token.strip())
        out.append({"token": token.strip(), "from": int(t["from"]), "to": int(t["to"])})
    return out


def check_query(f, v):
    if not isinstance(v, dict):
        raise ValueError(f["rule"])
    return v


FIELD_CHECKS = {
    "address": check_address,
    "addressList": check_address_list,
    "integer": check_integer,
    "number": check_number,
    "timestamp": check_timestamp,
    "enum": check_enum,
    "text": check_text,
    "textList": check_text_list,
    "tokenWindows": check_token_windows,
    "query": check_query,
}


def validate(ep, raw):
    """The endpoint's input checked field by field, as catalog.validateInput does; a list of messages when wrong."""
    errors = []
    out = {}
    known = {f["key"] for f in ep["fields"]}
    extra = [k for k in raw if k not in known]
    if extra:
        errors.append(f"{ep['title']} takes no input named {', '.join(json.dumps(k) for k in extra)}.")
    for f in ep["fields"]:
        if f["key"] not in raw:
            if "default" in f:
                out[f["key"]] = f["default"]
            elif not f["optional"]:
                errors.append(f"{f['label']} is required.")
            continue
        try:
            out[f["key"]] = FIELD_CHECKS[f["kind"]](f, raw[f["key"]])
        except ValueError as e:
            errors.append(str(e))
    # Cross-field rules (catalog CrossFieldSpec) are said once every field is valid on its own.
    for rule in ep["rules"] if not errors else []:
        if rule["kind"] == "ordered":
            a, b = out.get(rule["lo"]), out.get(rule["hi"])
            if is_num(a) and is_num(b) and a > b:
                errors.append(rule["message"].replace("{min}", num_text(a)).replace("{max}", num_text(b)))
        elif rule["kind"] == "before":
            a, b = out.get(rule["from"]), out.get(rule["to"])
            if is_num(a) and is_num(b) and a >= b:
                errors.append(rule["message"])
        else:
            errors.append("This script does not know the rule " + json.dumps(rule["kind"]) + "; export it again.")
    return out, errors


def num_text(x):
    return str(int(x)) if isinstance(x, float) and x.is_integer() else str(x)


def price_of(ep, inp):
    """The credits a call costs, by the catalog's price rule (src/core/money/pricing.ts); None when not known before it runs."""
    rule = ep["price"]
    kind = rule["kind"]
    if kind == "free":
        return 0
    if kind == "flat":
        return rule["credits"]
    if kind == "perItem":
        return len(inp.get(rule["field"]) or []) * rule["credits"]
    if kind == "perReturned":
        return int(inp.get(rule["field"]) or 0) * rule["credits"]
    if kind == "perPage":
        return rule["credits"]
    return None


def encode(ep, inp):
    """The wire request (catalog.encodeRequest): GET inputs as query parameters, POST inputs as a JSON body."""
    path = ep["path"]
    query = {}
    body = {} if ep["method"] == "POST" else None
    for f in ep["fields"]:
        v = inp.get(f["key"])
        if v is None:
            continue
        if "{" + f["wire"] + "}" in path:
            path = path.replace("{" + f["wire"] + "}", urllib.parse.quote(str(v), safe=""))
        elif f["wire"] == "*":
            body = dict(v)
        elif ep["method"] == "GET":
            one = lambda x: format(x, "f").rstrip("0").rstrip(".") if isinstance(x, float) and not x.is_integer() else str(int(x)) if isinstance(x, float) else str(x)
            query[f["wire"]] = ",".join(one(x) for x in v) if isinstance(v, list) else one(v)
        else:
            body[f["wire"]] = v
    return path, query, body


# ---- the request history: a submit with no clear answer (src/core/jobs/reconcile.ts) ----

def scalar(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def empty(v):
    return v is None or v == ""


def same_inputs(sent, rec):
    if empty(sent) or empty(rec):
        return empty(sent) and empty(rec)
    if isinstance(sent, list):
        if isinstance(rec, list):
            return len(rec) == len(sent) and all(same_inputs(a, b) for a, b in zip(sent, rec))
        if isinstance(rec, dict) and isinstance(rec.get("count"), int) and isinstance(rec.get("first"), list):
            first = rec["first"]
            return rec["count"] == len(sent) and len(first) <= len(sent) and all(same_inputs(sent[i], x) for i, x in enumerate(first))
        return False
    if isinstance(sent, dict):
        if not isinstance(rec, dict):
            return False
        return all(same_inputs(sent.get(k), rec.get(k)) for k in set(sent) | set(rec))
    if isinstance(rec, (dict, list)):
        return False
    return scalar(sent) == scalar(rec)


def parse_time(v):
    try:
        if isinstance(v, (int, float)):
            return v / 1000 if v > 1e11 else float(v)
        return datetime.fromisoformat(str(v).replace("Z", "+00:00")).timestamp()
    except (TypeError, ValueError):
        return None


def find_submitted(api, ep_id, inp, sent_at, known):
    """Looks for the job a submit may have made: same endpoint and inputs, made since the send; never one this run follows already."""
    deadline = max(time.time() + HISTORY_WAIT, sent_at + ACK_TIMEOUT - 10)
    say("  No clear answer to the submit, so it may have been charged: looking for it in the request history (free)\u2026")
    while True:
        try:
            records = api.json("GET", DATA["historyPath"])
        except (Stop, requests.RequestException, ValueError) as e:
            raise Stop(f"The request history could not be read ({e}), so whether it was charged is unknown. Check your request history before running again.")
        items = records.get("requests") if isinstance(records, dict) else records
        if not isinstance(items, list):
            items = []
        now = time.time()
        for r in items:
            if not isinstance(r, dict) or str(r.get("requestId")) in known:
                continue
            at = parse_time(r.get("createdAt"))
            if str(r.get("endpoint", "")).lstrip("/") != ep_id or at is None or not (sent_at - CLOCK_SKEW <= at <= now + CLOCK_SKEW):
                continue
            if same_inputs(inp, r.get("inputs")):
                say(f"  It was accepted after all (request {r['requestId']}); following it.")
                return str(r["requestId"])
        if time.time() >= deadline:
            return None
        time.sleep(HISTORY_EVERY)


# ---- reading results (src/core/pipeline/resolve.ts): a file, or an extracted .zip folder ----

def result_files(path):
    if os.path.isdir(path):
        return [os.path.join(path, n) for n in sorted(os.listdir(path)) if n.lower().endswith((".csv", ".txt"))]
    return [path]


def read_rows(path):
    """A result's columns and rows: a .txt list is one column "address" (its first line may be that header)."""
    low = path.lower()
    with open(path, encoding="utf-8-sig", newline="") as f:
        if low.endswith(".txt"):
            lines = [l.strip() for l in f.read().splitlines()]
            if lines and lines[0].lower() == "address":
                lines = lines[1:]
            return ["address"], [[l] for l in lines if l]
        if low.endswith(".json"):
            return json_rows(json.load(f))
        rows = list(csv.reader(f))
    return (rows[0], rows[1:]) if rows else ([], [])


def json_rows(answer):
    items = answer if isinstance(answer, list) else next((v for v in answer.values() if isinstance(v, list)), []) if isinstance(answer, dict) else []
    if items and all(isinstance(x, dict) for x in items):
        cols = list(dict.fromkeys(k for x in items for k in x))
        return cols, [["" if x.get(c) is None else str(x.get(c)) for c in cols] for x in items]
    return ["value"], [[str(x)] for x in items]


def column_chain(cells, name):
    filled = [c.strip() for c in cells if c.strip()]
    if not filled:
        return "main" if name.strip().lower() in DATA["addressNames"] else None
    main = sum(1 for c in filled if is_address(c, "main"))
    digit = sum(1 for c in filled if c.isdigit() and is_address(c, "main"))
    alt = sum(1 for c in filled if is_address(c, "alt"))
    if main >= DATA["agree"] * len(filled) and (main > digit or re.search(DATA["addressName"], name, re.I)):
        return "main"
    if alt >= DATA["agree"] * len(filled):
        return "alt"
    return None


def address_column(cols, rows):
    sample = rows[: DATA["sampleRows"]]
    found = [(i, n, column_chain([r[i] if i < len(r) else "" for r in sample], n)) for i, n in enumerate(cols)]
    found = [x for x in found if x[2]]
    names = DATA["addressNames"]

    def rank(n):
        n = n.strip().lower()
        return names.index(n) if n in names else len(names) if re.search(DATA["walletHint"], n, re.I) else len(names) + 1

    return min(found, key=lambda x: rank(x[1])) if found else None


def number_key(v):
    try:
        x = float(v.replace(",", ""))
        return (0, -x) if math.isfinite(x) else (1, 0)
    except ValueError:
        return (1, 0)


def resolve(ref, done):
    """A reference's values: {"from", "column"?, "top"?, "by"?} over an earlier step's result."""
    src = done.get(ref["from"])
    if src is None:
        raise Stop(f"{json.dumps(ref['from'])} has no result yet.")
    top = ref.get("top") or math.inf
    values, seen, chain = [], set(), None
    for path in result_files(src["resultPath"]):
        if len(values) >= top:
            break
        cols, rows = read_rows(path)
        if "column" in ref:
            if ref["column"] not in cols:
                raise Stop(f"{json.dumps(ref['from'])} has no column {json.dumps(ref['column'])} (its columns: {', '.join(cols)}).")
            col = cols.index(ref["column"])
            ch = column_chain([r[col] if col < len(r) else "" for r in rows[: DATA["sampleRows"]]], ref["column"])
        else:
            a = address_column(cols, rows)
            if a:
                col, ch = a[0], a[2]
            elif len(cols) == 1:
                col, ch = 0, None
            else:
                raise Stop(f"{json.dumps(ref['from'])} has no address column; name one with \"column\" (its columns: {', '.join(cols)}).")
        if "by" in ref:
            if ref["by"] not in cols:
                raise Stop(f"{json.dumps(ref['from'])} has no column {json.dumps(ref['by'])} to sort by.")
            by = cols.index(ref["by"])
            rows = sorted(rows, key=lambda r: number_key(r[by] if by < len(r) else ""))
        chain = chain or ch
        for r in rows:
            if len(values) >= top:
                break
            v = (r[col] if col < len(r) else "").strip()
            if ch:
                if not is_address(v, ch):
                    continue
                v = norm_address(v, ch)
            if v and v not in seen:
                seen.add(v)
                values.append(v)
    return values, chain


# ---- the steps: one function per step kind ----

def write_record(ctx, name, endpoint_id, result_path, credits):
    rec = {"cell": name}
    if endpoint_id:
        rec["endpointId"] = endpoint_id
    rec.update({"resultPath": os.path.abspath(result_path), "credits": credits, "size": 0, "at": ctx["at"]})
    ctx["done"][name] = rec
    try:
        rec["size"] = len(resolve({"from": name}, ctx["done"])[0])
    except Stop:
        rec["size"] = 0
    with open(os.path.join(ctx["dir"], name + ".json"), "w", encoding="utf-8") as f:
        f.write(json.dumps(rec, indent=2, ensure_ascii=False) + "\n")
    return rec


def write_list(ctx, name, values):
    path = os.path.join(ctx["dir"], name + ".txt")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("".join(v + "\n" for v in values))
    write_record(ctx, name, None, path, 0)
    say(f"  {len(values):,} values \u2192 {os.path.relpath(path)}")


def step_take(ctx, step):
    values, _ = resolve(step["take"], ctx["done"])
    write_list(ctx, step["name"], values)


DECIMAL = re.compile(r"^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$")


def csv_line(cells):
    """One CSV line as the table's export writes it (csvFormat.ts formatLine, formulas left as they are)."""
    if len(cells) == 1 and cells[0] == "":
        return '""'
    return ",".join('"' + c.replace('"', '""') + '"' if any(ch in c for ch in ',"\n\r') else c for c in cells)


def condition_test(c, i):
    """One condition of a filter step as the table's column filter reads it (src/core/pipeline/filter.ts):
    ranges inclusive and exact at every digit (Decimal), contains in any case, empty and nonEmpty."""
    cell = lambda r: r[i] if i < len(r) else ""
    op = c["op"]
    if op == "contains":
        needle = c["value"].lower()
        return lambda r: needle in cell(r).lower()
    if op == "empty":
        return lambda r: cell(r) == ""
    if op == "nonEmpty":
        return lambda r: cell(r) != ""
    bound = lambda v: Decimal(str(v).strip())
    lo = bound(c["value"][0]) if op == "between" else bound(c["value"]) if op == ">=" else None
    hi = bound(c["value"][1]) if op == "between" else bound(c["value"]) if op == "<=" else None

    def in_range(r):
        t = cell(r).strip()
        if not DECIMAL.match(t):
            return False
        x = Decimal(t)
        return (lo is None or x >= lo) and (hi is None or x <= hi)

    return in_range


def step_filter(ctx, step):
    src = ctx["done"].get(step["from"])
    if src is None:
        raise Stop(f"{json.dumps(step['from'])} has no result yet.")
    files = result_files(src["resultPath"])
    if len(files) != 1:
        raise Stop(f"{json.dumps(step['from'])} is a folder of {len(files)} files; a filter reads one result file.")
    cols, rows = read_rows(files[0])
    tests = []
    for c in step["where"]:
        if c["column"] not in cols:
            raise Stop(f"{json.dumps(step['from'])} has no column {json.dumps(c['column'])} to filter on (its columns: {', '.join(cols)}).")
        tests.append(condition_test(c, cols.index(c["column"])))
    kept = [r for r in rows if all(t(r) for t in tests)]
    path = os.path.join(ctx["dir"], step["name"] + ".csv")
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write("".join(csv_line(r) + "\n" for r in [cols] + kept))
    write_record(ctx, step["name"], None, path, 0)
    say(f"  {len(kept):,} rows kept \u2192 {os.path.relpath(path)}")


def step_sets(ctx, step):
    sets, chains = [], set()
    for ref in step["of"]:
        values, chain = resolve(ref, ctx["done"])
        if not chain:
            raise Stop(f"{json.dumps(ref['from'])} gives no addresses to combine.")
        chains.add(chain)
        sets.append(values)
    if len(chains) > 1:
        raise Stop("These results hold addresses of two chains; combine results of one chain.")
    first, rest = sets[0], [set(s) for s in sets[1:]]
    op = step["op"]
    if op == "union":
        out = list(dict.fromkeys(a for s in sets for a in s))
    elif op == "intersect":
        out = [a for a in first if all(a in s for s in rest)]
    else:
        out = [a for a in first if not any(a in s for s in rest)]
    write_list(ctx, step["name"], out)


def step_call(ctx, step):
    name = step["name"]
    ep = DATA["endpoints"][step["call"]]
    raw = dict(step["inputs"])
    for key, ref in step["refs"].items():
        raw[key] = resolve(ref, ctx["done"])[0]
    inp, errors = validate(ep, raw)
    if errors:
        raise Stop(" ".join(errors) + " Nothing was sent.")
    price = price_of(ep, inp)
    line = ctx["lines"].get(name)
    if price is None or (price > 0 and line is None) or (line is not None and price > line):
        raise Stop(f"{json.dumps(name)} would cost {'an unknown amount' if price is None else fmt(price)}, more than its line in the plan ({fmt(line or 0)}). Nothing was sent for it.")
    say(f"  price: {fmt(price)}")
    path, query, body = encode(ep, inp)
    if ep["family"] == "queued":
        request_id, credits = submit(ctx, ep, inp, path, query, body, price)
        url, credits = follow(ctx, request_id, credits)
        dest = os.path.join(ctx["dir"], name + ".result")
        tmp = dest + ".download"
        ctx["api"].download(url, tmp)
        if zipfile.is_zipfile(tmp):
            if os.path.isdir(dest):
                shutil.rmtree(dest)
            unzip(tmp, dest)
            os.remove(tmp)
            out = dest
        else:
            # The file's own extension (a .txt or a .csv), else the kind the inputs chose.
            ext = os.path.splitext(urllib.parse.urlsplit(url).path)[1].lower().lstrip(".")
            out = dest + "." + (ext if ext in ("txt", "csv") else "txt" if result_kind(ep, inp) == "zip" else result_kind(ep, inp))
            os.replace(tmp, out)
    else:
        try:
            r = ctx["api"].send(ep["method"], path, query, body, timeout=ACK_TIMEOUT)
        except requests.RequestException as e:
            if price > 0:
                ctx["charged"] += price
                raise Stop(f"No clear answer ({type(e).__name__}): it may have been charged {fmt(price)}. Check your request history before running again.")
            raise Stop(f"The call failed: {e}")
        if r.status_code >= 300:
            raise Stop(f"{ep['method']} {path} answered HTTP {r.status_code}: {r.text[:300]}")
        credits = price
        out = os.path.join(ctx["dir"], name + ".result.json")
        with open(out, "w", encoding="utf-8") as f:
            f.write(r.text)
    ctx["charged"] += credits
    rec = write_record(ctx, name, ep["id"], out, credits)
    say(f"  charged {fmt(credits)}; {rec['size']:,} values \u2192 {os.path.relpath(out)}")


def result_kind(ep, inp):
    chosen = inp.get("output")
    return chosen if chosen in ep["results"] else ep["results"][0]


def unzip(src, dest):
    """A .zip result into a folder of its own: plain file names only, nothing outside the folder."""
    os.makedirs(dest, exist_ok=True)
    with zipfile.ZipFile(src) as z:
        for info in z.infolist():
            if info.is_dir():
                continue
            base = re.sub(r"[^A-Za-z0-9._ -]", "_", os.path.basename(info.filename.replace("\\", "/"))).lstrip(".")
            if not base:
                continue
            with z.open(info) as s, open(os.path.join(dest, base), "wb") as d:
                shutil.copyfileobj(s, d)


def submit(ctx, ep, inp, path, query, body, price):
    """Sends a queued submit once; a submit with no clear answer is looked up in the history before any retry."""
    api = ctx["api"]
    for attempt in (1, 2):
        sent_at = time.time()
        try:
            r = api.send(ep["method"], path, query, body, timeout=ACK_TIMEOUT)
        except requests.RequestException:
            r = None
        if r is not None and r.status_code < 300:
            ack = r.json()
            request_id = str(ack["requestId"])
            say(f"  accepted as {request_id}")
            return request_id, price
        if r is not None and r.status_code < 500 and r.status_code != 408:
            # Refused at submit: nothing was charged (spec section 7.2).
            raise Stop(f"{ep['method']} {path} was refused, HTTP {r.status_code}: {r.text[:300]}. Nothing was charged.")
        found = find_submitted(api, ep["id"], inp, sent_at, ctx["known"])
        if found:
            return found, price
        if attempt == 2:
            break
        say("  Not in the request history: it was not charged. Sending it again (once).")
    raise Stop("The submit got no clear answer twice and is not in the request history; nothing more is sent.")


def follow(ctx, request_id, credits):
    ctx["known"].add(request_id)
    api = ctx["api"]
    path = DATA["pollPath"][0] + urllib.parse.quote(request_id, safe="") + DATA["pollPath"][1]
    misses = 0
    while True:
        try:
            r = api.send("GET", path)
            if r.status_code >= 300 and (r.status_code >= 500 or r.status_code in (408, 429)):
                raise requests.RequestException(f"HTTP {r.status_code}")
            if r.status_code >= 300:
                raise Stop(f"The job {request_id} could not be followed: HTTP {r.status_code}: {r.text[:300]}. It was paid; its file is listed in your request history.")
            rec = r.json()
            misses = 0
        except (requests.RequestException, ValueError) as e:
            # The poll is free: try again at the next turn, for a while.
            misses += 1
            if misses >= 12:
                ctx["charged"] += credits
                raise Stop(f"The job {request_id} could not be followed ({e}). It was paid; its file is listed in your request history.")
            time.sleep(POLL_SECONDS)
            continue
        if isinstance(rec.get("cost"), (int, float)) and not isinstance(rec.get("cost"), bool):
            credits = int(rec["cost"])
        if rec.get("url"):
            return rec["url"], credits
        if rec.get("status") == "failed":
            ctx["charged"] += credits
            raise Stop(f"The job {request_id} failed on the server: {rec.get('error') or 'no reason given'} (it was accepted, so it was charged {fmt(credits)}).")
        time.sleep(POLL_SECONDS)


STEP_KINDS = {"call": step_call, "take": step_take, "filter": step_filter, "sets": step_sets}


# ---- the run ----

def print_plan():
    plan = DATA["plan"]
    say(f"Plan of {DATA['name']}:")
    for line in plan["lines"]:
        say(f"  {line['text']}")
    say(f"  Total: {plan['totalText']}")


def main(argv=None):
    ap = argparse.ArgumentParser(description="Runs the Wallet Analytics pipeline " + DATA["name"] + " (the key from WA_API_KEY).")
    ap.add_argument("--max-credits", type=int, help="refuse to start when the plan could cost more than this many credits")
    ap.add_argument("--plan", action="store_true", help="print the plan and exit; nothing is sent")
    args = ap.parse_args(argv)
    print_plan()
    total = DATA["plan"]["total"]
    if args.plan:
        return 0
    if total > 0 and args.max_credits is None:
        say(f"Refused: give --max-credits (the plan costs {DATA['plan']['totalText']}). Nothing was sent.")
        return 2
    if args.max_credits is not None and total > args.max_credits:
        say(f"Refused: the plan costs {DATA['plan']['totalText']}, more than --max-credits {args.max_credits:,}. Nothing was sent.")
        return 2
    key = os.environ.get("WA_API_KEY", "").strip()
    if not key:
        say("Set WA_API_KEY to your Wallet Analytics API key. Nothing was sent.")
        return 2
    here = os.path.dirname(os.path.abspath(__file__))
    ctx = {
        "dir": os.path.join(here, DATA["resultsDir"]),
        "done": {},
        "known": set(),
        "charged": 0,
        "at": datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "lines": {l["cell"]: l["credits"] for l in DATA["plan"]["lines"]},
    }
    os.makedirs(ctx["dir"], exist_ok=True)
    code = 0
    try:
        ctx["api"] = Api(base_url(), key)
        for i, step in enumerate(DATA["steps"], 1):
            say(f"[{i}/{len(DATA['steps'])}] {step['name']} ({step.get('call') or step['kind']})")
            STEP_KINDS[step["kind"]](ctx, step)
    except Stop as e:
        say(f"Stopped: {e}")
        code = 1
    except (requests.RequestException, OSError, ValueError, KeyError) as e:
        say(f"Stopped: {type(e).__name__}: {e}")
        code = 1
    say(f"Charged in this run: {fmt(ctx['charged'])}.")
    return code
`;
