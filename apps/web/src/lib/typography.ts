import type { PostProcessorModule } from 'i18next';
import { typeset } from '@tipcard/shared/i18n/typography';

/**
 * The typography filter (no-break spaces, `@tipcard/shared/i18n/typography`) as an i18next post-processor: every
 * text the app's instances translate goes through it after its placeholders are filled, in the language it is
 * translated into. Components never place no-break spaces by hand (decision 0035).
 */
export const typography: PostProcessorModule = {
  type: 'postProcessor',
  name: 'typography',
  process: (value, _key, options, translator: { language?: string }) => typeset(value, options.lng ?? translator.language ?? ''),
};
