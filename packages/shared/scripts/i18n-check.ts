import { LOCALES, DEFAULT_LOCALE } from '../src/constants.ts';
import { GLOSSARY } from '../src/i18n/glossary.ts';
import { findBannedWords } from '../src/i18n/glossary-check.ts';
import { readCatalogs } from '../src/i18n/node-catalogs.ts';
import { findParityProblems } from '../src/i18n/parity.ts';
import { findSentenceEnDashes } from '../src/i18n/punctuation-check.ts';

const catalogs = readCatalogs();
const problems = [...findParityProblems(catalogs), ...findBannedWords(catalogs, GLOSSARY), ...findSentenceEnDashes(catalogs)];
for (const problem of problems) console.error(`i18n: ${problem}`);
if (problems.length > 0) {
  console.error(
    `i18n: ${problems.length} problem(s): parity against ${DEFAULT_LOCALE}, words the glossary bans, sentence dashes`,
  );
  process.exit(1);
}
console.log(
  `i18n: ${LOCALES.join(', ')} have every key and placeholder of ${DEFAULT_LOCALE} and none of the ${GLOSSARY.length} glossary concepts' banned words, and one sentence dash (" — ")`,
);
