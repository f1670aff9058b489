/** The teams fixtures for other modules' tests (a test reaches another module through its test support). */
export { teamFixtures, type Staff } from './teams.fixtures.ts';
