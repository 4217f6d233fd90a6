export const REVENUE_PATH = '/revenue';
