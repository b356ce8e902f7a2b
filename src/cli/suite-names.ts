/** The suite folders a run includes by default (the folders of suites/). */
export const ALL_SUITES = ['pairing', 'auth', 'config', 'payment', 'cancel', 'preauth', 'print-slip', 'webhooks', 'isolation', 'refund', 'properties', 'stateful'];
