/**
 * Rows of each Audit table drawn at first, and added by each "Show older": the log answers up to 500 of each, and
 * every row drawn goes through the page's first render and hydration.
 */
export const AUDIT_ROWS_PER_STEP = 50;
