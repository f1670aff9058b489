/**
 * The signed-in area's first modules, behind one import: the router loads the session guard, the layout and the
 * overview (the installed app's start) as one file, and the page served to a signed-in visitor preloads it
 * (vite-chunks.ts, decision 0056).
 */
export { RequireSession } from './require-session.tsx';
export { DefaultLayout } from './layouts/default-layout.tsx';
export { default as OverviewPage } from '../features/overview/overview-page.tsx';
