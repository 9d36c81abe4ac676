// Job names of the assets area (a module of its own so services can send them without loading handlers).
export const ENUMERATE_JOB = 'asset-enumerate';
/** Data: {team_id, policy_id, alerting_config_ids, event}. Delivery belongs to the alerting configs area. */
export const ALERT_JOB = 'asset-alert';
