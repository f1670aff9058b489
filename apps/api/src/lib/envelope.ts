import { z } from 'zod';

/** The schema of an answer: what the route returns inside `{ data }` (an error has its own body, plugins/error-handler.ts). */
export const data = <T extends z.ZodType>(schema: T) => z.object({ data: schema });
