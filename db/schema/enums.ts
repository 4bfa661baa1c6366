/**
 * Database enums shared by several capabilities' tables (booking roles, channels, domain event types), built from
 * the vocabulary arrays in domain/vocabulary.ts. Enums used by one capability live in that capability's file.
 * Part of the Drizzle schema (db/schema/index.ts re-exports every file); relative imports only, drizzle-kit loads it.
 */
import { pgEnum } from 'drizzle-orm/pg-core';
import { bookingRoles, channels, domainEventTypes } from '../../domain/vocabulary';

export const bookingRoleEnum = pgEnum('booking_role', bookingRoles);
export const channelEnum = pgEnum('channel', channels);
export const domainEventTypeEnum = pgEnum('domain_event_type', domainEventTypes);
