/** Opens a result file as a table by its extension. */
import { extname } from 'node:path';
import { isCompareFile, openCompareFile } from './compare/compareFile';
import { openAddressList, openCsvFile, type OpenCsvOptions } from './csvSource';
import { openJsonFile } from './jsonSource';
import type { TableSource } from './types';
import { l10n } from '../l10n';

/**
 * `.csv` → CSV, `.txt` → address list, `.json` → JSON rows. A `.zip` result holds several CSV
 * files: unzip it and open each. `.compare.json` → two results compared by address
 * (src/core/compare/). Other extensions are read as CSV.
 */
export async function openTable(path: string, options: OpenCsvOptions = {}): Promise<TableSource> {
  if (isCompareFile(path)) return openCompareFile(path, (file) => openTable(file, options), options);
  switch (extname(path).toLowerCase()) {
    case '.txt':
      return openAddressList(path, options);
    case '.json':
      return openJsonFile(path);
    case '.zip':
      throw new Error(l10n.t('A .zip result holds several CSV files: open each file inside it.'));
    default:
      return openCsvFile(path, options);
  }
}
