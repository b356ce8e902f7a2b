/**
 * certify-client: judges an integrator's Pay-Connect client by what it does against the embedded
 * simulator (or a `sim --record` recording), rule by rule.
 */
export { certifyClient, TLS_TEST_NAME, type Certification, type CertifyClientHooks, type CertifyClientOptions } from './certify.ts';
export { CLIENT_PROFILE_DEFAULTS, clientRunOf, readRecordingFile, type ClientProfile, type ClientRun } from './client-run.ts';
export { CLIENT_CAPABILITY, judgeClient, ruleTestName } from './judge.ts';
export { CLIENT_RULES, type ClientRuleId } from './rules.ts';
