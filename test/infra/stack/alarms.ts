import { describe, expect, it } from 'vitest';
import { customizedAssay, defaultAssay, logicalIdOf, type SynthesizedAssay } from '../support/assay-app.js';

interface AlarmProperties {
  MetricName: string;
  Namespace: string;
  Dimensions: { Name: string; Value: unknown }[];
  ComparisonOperator: string;
  Threshold: number;
  TreatMissingData: string;
  AlarmActions?: unknown[];
}

function alarmsOf(assay: SynthesizedAssay): AlarmProperties[] {
  return Object.values(assay.template.findResources('AWS::CloudWatch::Alarm')).map((alarm) => alarm.Properties as AlarmProperties);
}

describe('the alarms', () => {
  it('raises an alarm when the dead-letter queue holds messages', () => {
    const assay = defaultAssay();
    const deadLetterQueue = logicalIdOf(assay.stack.queues.casesDeadLetters);
    const deadLetters = alarmsOf(assay).find((alarm) =>
      alarm.Dimensions.some((dimension) => dimension.Name === 'QueueName' && JSON.stringify(dimension.Value).includes(deadLetterQueue)),
    );

    expect(deadLetters).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 0,
    });
  });

  it.each(['InputErrors', 'Regressions', 'MissingCases', 'CasesLackingJudgment', 'JudgesChanged'])(
    "raises an alarm on %s > 0 from the functions' metrics, and not on a night without data",
    (metricName) => {
      const alarm = alarmsOf(defaultAssay()).find((candidate) => candidate.MetricName === metricName);

      // Powertools adds the `service` dimension to every metric; an alarm without it would watch an empty series.
      expect(alarm).toMatchObject({
        Namespace: 'assay',
        Dimensions: [{ Name: 'service', Value: 'assay' }],
        ComparisonOperator: 'GreaterThanThreshold',
        Threshold: 0,
        TreatMissingData: 'notBreaching',
      });
    },
  );

  it('has no topic and no alarm actions without alarmEmail', () => {
    const assay = defaultAssay();

    assay.template.resourceCountIs('AWS::SNS::Topic', 0);
    expect(alarmsOf(assay).length).toBeGreaterThanOrEqual(2);
    expect(alarmsOf(assay).every((alarm) => alarm.AlarmActions === undefined)).toBe(true);
  });

  it('e-mails every alarm through an encrypted, TLS-only topic when alarmEmail is set', () => {
    // Prepare: alarmEmail is oncall@example.com in the customized context.
    const assay = customizedAssay();
    const topic = Object.keys(assay.template.findResources('AWS::SNS::Topic'))[0] ?? '';
    const key = Object.keys(assay.template.findResources('AWS::KMS::Key'))[0] ?? '';

    assay.template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: { 'Fn::GetAtt': [key, 'Arn'] } });
    assay.template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    assay.template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'oncall@example.com',
      TopicArn: { Ref: topic },
    });
    expect(JSON.stringify(assay.template.findResources('AWS::SNS::TopicPolicy'))).toContain('"aws:SecureTransport":"false"');
    for (const alarm of alarmsOf(assay)) expect(alarm.AlarmActions).toEqual([{ Ref: topic }]);
  });
});
