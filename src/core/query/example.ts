/** The file "New Wallet Database Query" creates: a working query, with comments explaining the model. */

export const EXAMPLE_QUERY = `// A Wallet Database query. This file is exactly the JSON body that is sent, plus keys
// starting with "$", which stay in the file: "$chain" picks the database ("main" or "alt").
//
// Cost: 100 credits per matching wallet, whatever "limit" says (100 when nothing matches).
// So start narrow, as this example does: tighten the conditions, not the limit, to spend less.
// Run it from the "▶ Run" line above the query. The same query run again before the next
// hourly refresh (the top of each UTC hour) opens its last answer for free.
//
// "where" holds one group: {"and": [...]} (every item must hold) or {"or": [...]} (at least
// one must). A group holds conditions and more groups, nested as deep as needed.
// A condition is {"field": ..., "op": ..., "value": ...}:
//   op: = != > >= < <= (one value), "between" ([min, max]), "in" (a list of values).
// Fields come from the server: inside "field": "" press Ctrl+Space for the list, and hover a
// field for its meaning, timeframe and type. Snippets: cond, and, or, between, in.
{
  "$chain": "main",
  "where": {
    "and": [
      { "field": "winrate_30d", "op": ">=", "value": 0.7 },
      { "field": "trade_count_30d", "op": "between", "value": [20, 500] },
      { "field": "total_pnl_usd_30d", "op": ">", "value": 50000 },
      {
        "or": [
          { "field": "main_dex", "op": "in", "value": ["raydium_amm", "pumpswap"] },
          { "field": "realized_pnl_usd_30d", "op": ">", "value": 100000 }
        ]
      }
    ]
  },
  // At most this many addresses come back (1 to 100,000).
  "limit": 100,
  // Optional: the order of the wallets, and the fields returned with each address.
  "sort": [{ "field": "total_pnl_usd_30d", "dir": "desc" }],
  "columns": ["winrate_30d", "total_pnl_usd_30d", "trade_count_30d"]
}
`;
