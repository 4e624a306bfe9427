import { Duration, Stack } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE, SERVICE_NAME } from './function-defaults.js';
import type { PipelineQueues } from './queues.js';

export interface PipelineAlarmsProps {
  readonly queues: PipelineQueues;
  /** Where alarms are e-mailed; absent: the alarms only show in the console. */
  readonly email?: string | undefined;
}

const PERIOD = Duration.minutes(5);

/**
 * What someone should look at: cases that the failure recorder is not
 * draining from the dead-letter queue, control messages and upload events that
 * failed for good, rows rejected by ingest, regressions found by the
 * reducer, runs reported at their deadline with cases missing, cases a
 * judge failed for good, and judges whose canary verdicts changed. With an
 * e-mail address, every alarm goes to an encrypted SNS topic
 * that sends it there.
 */
export class PipelineAlarms extends Construct {
  readonly alarms: Alarm[] = [];
  readonly topic?: Topic;

  constructor(scope: Construct, id: string, props: PipelineAlarmsProps) {
    super(scope, id);
    const { queues } = props;
    // The failure recorder empties this queue within seconds; messages still there after 15 minutes mean it is failing.
    this.queueDepthAlarm(
      'CasesDeadLetters',
      queues.casesDeadLetters,
      3,
      "Dead-lettered cases are not being recorded as failures: check the failure recorder's logs",
    );
    this.queueDepthAlarm(
      'ControlDeadLetters',
      queues.controlDeadLetters,
      1,
      'A reducer check or ingest continuation failed for good: its run may never be reported',
    );
    this.queueDepthAlarm(
      'FailedEvents',
      queues.failedEvents,
      1,
      'An upload or a nightly trigger did not start its run: the event is kept in the failed-events queue',
    );
    this.metricAlarm('InputErrors', 'Rows of an uploaded dataset were rejected: see runs/<run>/input-errors.jsonl');
    this.metricAlarm('Regressions', "A run scored significantly worse than its suite's baseline: see the run's report");
    // A run waits for its cases until its deadline (run.deadline_seconds; at least 25 hours for a batch-judged run, whose jobs have a day).
    this.metricAlarm(
      'MissingCases',
      "A run was reported with cases missing: its deadline passed before they ended (for a batch-judged run, its jobs did not finish within their window); see the run's report",
    );
    this.metricAlarm(
      'CasesLackingJudgment',
      "A run was reported with cases some judge failed for good: that judge's metrics average fewer cases; see the report's failed_cases",
    );
    this.metricAlarm(
      'JudgesChanged',
      "A judge's canary verdicts changed since the run compared with: its metrics' drops were put down to the judge; see the report's Judge canaries",
    );

    if (props.email !== undefined) {
      const topic = this.encryptedTopic();
      topic.addSubscription(new EmailSubscription(props.email));
      for (const alarm of this.alarms) alarm.addAlarmAction(new SnsAction(topic));
      this.topic = topic;
    }
  }

  private queueDepthAlarm(id: string, queue: IQueue, periods: number, description: string): void {
    this.alarms.push(
      new Alarm(this, `${id}Depth`, {
        alarmDescription: description,
        metric: queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }),
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        threshold: 0,
        evaluationPeriods: periods,
        // SQS publishes the metric every minute for an active queue; no data is an empty queue.
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );
  }

  /** A count the functions publish with Powertools; it carries the `service` dimension Powertools always adds. */
  private metricAlarm(metricName: string, description: string): void {
    this.alarms.push(
      new Alarm(this, metricName, {
        alarmDescription: description,
        metric: new Metric({
          namespace: METRICS_NAMESPACE,
          metricName,
          dimensionsMap: { service: SERVICE_NAME },
          statistic: 'Sum',
          period: PERIOD,
        }),
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        threshold: 0,
        evaluationPeriods: 1,
        // The metric exists only while runs happen; a quiet night is not an incident.
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );
  }

  /** SNS encrypted with a key of its own: CloudWatch may not use the AWS-managed SNS key to publish. */
  private encryptedTopic(): Topic {
    const key = new Key(this, 'AlarmTopicKey', { description: 'assay: encrypts the alarm topic', enableKeyRotation: true });
    key.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': Stack.of(this).account } },
      }),
    );
    return new Topic(this, 'AlarmTopic', { displayName: 'assay alarms', masterKey: key, enforceSSL: true });
  }
}
