/**
 * Which banks take SEPA Instant (SCT Inst) payouts, for the sandbox (docs/decisions/0044). A real deployment reads the
 * EPC's register of SCT Inst participants (by BIC) from its bank; the sandbox keeps this table, so that both a
 * reachable and an unreachable bank can be tried by hand. A bank is named by its BIC's first six characters
 * (bank code and country), so every branch BIC of a reachable bank is reachable too.
 */
export const SCT_INST_REACHABLE_BANKS: Readonly<Record<string, string>> = {
  HABALV: 'Swedbank (Latvia)',
  UNLALV: 'SEB banka (Latvia)',
  PARXLV: 'Citadele banka (Latvia)',
  COBADE: 'Commerzbank (Germany)',
  DEUTDE: 'Deutsche Bank (Germany)',
  BNPAFR: 'BNP Paribas (France)',
  CAIXES: 'CaixaBank (Spain)',
  BBVAES: 'BBVA (Spain)',
  NDEAFI: 'Nordea (Finland)',
  INGBNL: 'ING (Netherlands)',
};

/** Whether an account can be paid by SEPA Instant: a SEPA account whose bank is in the table; UK accounts never. */
export function isInstantReachable(method: { kind: 'sepa' | 'uk'; bic: string | null }): boolean {
  return method.kind === 'sepa' && method.bic !== null && method.bic.slice(0, 6).toUpperCase() in SCT_INST_REACHABLE_BANKS;
}
