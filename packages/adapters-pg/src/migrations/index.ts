import { Effect } from "effect"
import { Migrator } from "effect/sql"
import foundation from "./0001_foundation.ts"
import outbox from "./0002_outbox.ts"
import agentSpend from "./0003_agent_spend.ts"
import idempotencyRateLimits from "./0004_idempotency_rate_limits.ts"
import oauthApiKeys from "./0005_oauth_api_keys.ts"
import webhooks from "./0006_webhooks.ts"
import spendUsage from "./0007_spend_usage.ts"
import lockSpendDecision from "./0008_lock_spend_decision.ts"
import ledgerRules from "./0009_ledger_rules.ts"
import approvals from "./0010_approvals.ts"
import ledgerPendingDirections from "./0011_ledger_pending_directions.ts"
import inboundReview from "./0012_inbound_review.ts"
import oauthApplicationsByTeam from "./0013_oauth_applications_by_team.ts"
import lockSpendDecisions from "./0014_lock_spend_decisions.ts"
import receiveAddressesPaymentCodes from "./0015_receive_addresses_payment_codes.ts"
import transfers from "./0016_transfers.ts"
import checkout from "./0017_checkout.ts"
import budgetIntervalsVelocity from "./0018_budget_intervals_velocity.ts"
import approvalChainsSpendFreezes from "./0019_approval_chains_spend_freezes.ts"
import policyVersionsAudit from "./0020_policy_versions_audit.ts"
import knownMerchants from "./0021_known_merchants.ts"
import financeCore from "./0022_finance_core.ts"
import notificationsMembersCustomers from "./0023_notifications_members_customers.ts"
import transactionMonthTotals from "./0024_transaction_month_totals.ts"
import documents from "./0025_documents.ts"
import inbox from "./0026_inbox.ts"
import invoices from "./0027_invoices.ts"
import tracker from "./0028_tracker.ts"
import search from "./0029_search.ts"
import searchMore from "./0030_search_more.ts"
import crypto from "./0031_crypto.ts"
import cryptoPayouts from "./0032_crypto_payouts.ts"
import chatIntegrations from "./0033_chat_integrations.ts"
import inboxAccounts from "./0034_inbox_accounts.ts"
import chatMessages from "./0035_chat_messages.ts"
import dashboardSessions from "./0036_dashboard_sessions.ts"
import activityIndexes from "./0037_activity_indexes.ts"
import paymentCodeReservations from "./0038_payment_code_reservations.ts"
import installNonces from "./0039_install_nonces.ts"
import signInLinkRequests from "./0040_sign_in_link_requests.ts"
import auditAtCommit from "./0041_audit_at_commit.ts"
import idempotencyOutcomes from "./0043_idempotency_outcomes.ts"
import inboxDisplayName from "./0046_inbox_display_name.ts"
import userPreferences from "./0048_user_preferences.ts"
import invoiceInternalNote from "./0049_invoice_internal_note.ts"
import twinCategoryTaxonomy from "./0050_twin_category_taxonomy.ts"
import customerTags from "./0051_customer_tags.ts"
import personalTokens from "./0052_personal_tokens.ts"
import cardRefunds from "./0053_card_refunds.ts"
import cardAuthorizationUnlockedReads from "./0054_card_authorization_unlocked_reads.ts"
import x402Payments from "./0055_x402_payments.ts"
import spendDecisionsGovernance from "./0056_spend_decisions_governance.ts"

/** Every schema migration, forward-only, in order. A migration once released is never edited. */
export const migrations = Migrator.fromRecord({
  "0001_foundation": foundation,
  "0002_outbox": outbox,
  "0003_agent_spend": agentSpend,
  "0004_idempotency_rate_limits": idempotencyRateLimits,
  "0005_oauth_api_keys": oauthApiKeys,
  "0006_webhooks": webhooks,
  "0007_spend_usage": spendUsage,
  "0008_lock_spend_decision": lockSpendDecision,
  "0009_ledger_rules": ledgerRules,
  "0010_approvals": approvals,
  "0011_ledger_pending_directions": ledgerPendingDirections,
  "0012_inbound_review": inboundReview,
  "0013_oauth_applications_by_team": oauthApplicationsByTeam,
  "0014_lock_spend_decisions": lockSpendDecisions,
  "0015_receive_addresses_payment_codes": receiveAddressesPaymentCodes,
  "0016_transfers": transfers,
  "0017_checkout": checkout,
  "0018_budget_intervals_velocity": budgetIntervalsVelocity,
  "0019_approval_chains_spend_freezes": approvalChainsSpendFreezes,
  "0020_policy_versions_audit": policyVersionsAudit,
  "0021_known_merchants": knownMerchants,
  "0022_finance_core": financeCore,
  "0023_notifications_members_customers": notificationsMembersCustomers,
  "0024_transaction_month_totals": transactionMonthTotals,
  "0025_documents": documents,
  "0026_inbox": inbox,
  "0027_invoices": invoices,
  "0028_tracker": tracker,
  "0029_search": search,
  "0030_search_more": searchMore,
  "0031_crypto": crypto,
  "0032_crypto_payouts": cryptoPayouts,
  "0033_chat_integrations": chatIntegrations,
  "0034_inbox_accounts": inboxAccounts,
  "0035_chat_messages": chatMessages,
  "0036_dashboard_sessions": dashboardSessions,
  "0037_activity_indexes": activityIndexes,
  "0038_payment_code_reservations": paymentCodeReservations,
  "0039_install_nonces": installNonces,
  "0040_sign_in_link_requests": signInLinkRequests,
  "0041_audit_at_commit": auditAtCommit,
  "0043_idempotency_outcomes": idempotencyOutcomes,
  "0046_inbox_display_name": inboxDisplayName,
  "0048_user_preferences": userPreferences,
  "0049_invoice_internal_note": invoiceInternalNote,
  "0050_twin_category_taxonomy": twinCategoryTaxonomy,
  "0051_customer_tags": customerTags,
  "0052_personal_tokens": personalTokens,
  "0053_card_refunds": cardRefunds,
  "0054_card_authorization_unlocked_reads": cardAuthorizationUnlockedReads,
  "0055_x402_payments": x402Payments,
  "0056_spend_decisions_governance": spendDecisionsGovernance
})

/** The migrations numbered below `id`: a schema as it was before migration `id`, for migration tests. */
export const migrationsBefore = (id: number): Migrator.Loader =>
  Effect.map(migrations, (all) => all.filter(([migrationId]) => migrationId < id))

const run = Migrator.make({})

/**
 * Runs the loader's pending migrations and answers which ran (a second run runs none; concurrent runs serialise on the
 * migrations table lock).
 */
export const runMigrations = (loader: Migrator.Loader = migrations) => run({ loader })
