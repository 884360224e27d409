import { containerRegistries } from './container-registries';
import { deviceClasses } from './device-classes';
import { gatewayClasses } from './gateway-classes';
import { hostnames } from './hostnames';
import { imagePullPolicies } from './image-pull-policies';
import { ingressClasses } from './ingress-classes';
import { networkPolicyIngress } from './network-policy-ingress';
import { nodeSelector } from './node-selector';
import { priorityClasses } from './priority-classes';
import type { Restriction } from './restriction';
import { runtimeClasses } from './runtime-classes';
import { services } from './services';
import { storageClasses } from './storage-classes';
import { volumeAttributesClasses } from './volume-attributes-classes';

/**
 * Everything a Tenant may restrict, in the order the policies check it (a request refused for several
 * reasons is refused for the first). One line per restriction module.
 */
export const RESTRICTIONS: readonly Restriction[] = [storageClasses, ingressClasses, priorityClasses, runtimeClasses, volumeAttributesClasses, deviceClasses, gatewayClasses, containerRegistries, imagePullPolicies, nodeSelector, services, networkPolicyIngress, hostnames];
