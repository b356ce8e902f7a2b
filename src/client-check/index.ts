/**
 * certify-client: judges an integrator's Pay-Connect client by what it does against the embedded
 * simulator (or a `sim --record` recording), rule by rule.
 */
export { certifyClientCommand, CERTIFY_CLIENT_USAGE, DEFAULT_CLIENT_INTEGRATOR_ID, parseCertifyClientArgs, type CertifyClientHooks, type CertifyClientOptions } from './certify-client.ts';
export { CLIENT_PROFILE_DEFAULTS, clientRunOf, readRecordingFile, type ClientProfile, type ClientRun } from './client-run.ts';
export { CLIENT_CAPABILITY, judgeClient, ruleTestName } from './judge.ts';
export { CLIENT_RULES, type ClientRuleId } from './rules.ts';
