import { Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { CfnFunction, IFunction } from 'aws-cdk-lib/aws-lambda';
import { Schedule, ScheduleExpression, ScheduleTargetInput } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { arnWildcardFinding } from './nag-findings.js';

export interface NightlyScheduleProps {
  /** An EventBridge Scheduler expression, in UTC: `cron(0 3 * * ? *)` is 03:00 every day. */
  readonly expression: string;
  readonly trigger: IFunction;
  /** Where an invocation goes that the scheduler could not deliver after its retries. */
  readonly deadLetterQueue: IQueue;
}

/**
 * The nightly regression run: EventBridge Scheduler invokes the scheduled
 * trigger, which re-ingests every configured suite's stored dataset (the
 * suites are in its ASSAY_SUITES variable, so the event carries none).
 */
export class NightlySchedule extends Construct {
  readonly schedule: Schedule;

  constructor(scope: Construct, id: string, props: NightlyScheduleProps) {
    super(scope, id);
    const role = new Role(this, 'InvokeRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com'),
      description: 'assay: lets the nightly schedule invoke the scheduled trigger',
    });
    this.schedule = new Schedule(this, 'Schedule', {
      description: 'assay: nightly regression run of the configured suites',
      schedule: ScheduleExpression.expression(props.expression),
      target: new LambdaInvoke(props.trigger, {
        role,
        input: ScheduleTargetInput.fromObject({ source: 'assay.nightly-schedule' }),
        deadLetterQueue: props.deadLetterQueue,
      }),
    });
    Validations.of(role).acknowledge({
      id: arnWildcardFinding(props.trigger.node.defaultChild as CfnFunction, ':*'),
      reason:
        "The scheduler target grants lambda:InvokeFunction on the trigger and on its versions and aliases (ARN:*); the wildcard spans only this one function's qualifiers",
    });
  }
}
