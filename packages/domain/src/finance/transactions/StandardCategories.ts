import type { TeamId } from "../../shared/model.ts"
import type { Category, CategoryId, CategoryType } from "./Category.ts"

/** One category of the standard taxonomy every team starts with. */
export interface StandardCategory {
  readonly slug: string
  readonly name: string
  readonly color: string
  readonly type: CategoryType
  readonly parent: string | null
  readonly excluded: boolean
  readonly taxRate: number | null
  readonly taxType: string | null
}

/** A child of the taxonomy: its slug, name and color, and its type and exclusion when they differ from its parent's. */
type Entry = readonly [slug: string, name: string, color: string, own?: { type?: CategoryType; excluded?: boolean }]

const group = (
  parent: readonly [slug: string, name: string, color: string],
  type: CategoryType,
  children: ReadonlyArray<Entry>
): Array<StandardCategory> => [
  {
    slug: parent[0],
    name: parent[1],
    color: parent[2],
    type,
    parent: null,
    excluded: false,
    taxRate: null,
    taxType: null
  },
  ...children.map(([slug, name, color, own]) => ({
    slug,
    name,
    color,
    type: own?.type ?? type,
    parent: parent[0],
    excluded: own?.excluded ?? false,
    taxRate: null,
    taxType: null
  }))
]

const contra = { type: "contra_revenue" } as const
const transfer = { type: "transfer" } as const
const excludedTransfer = { type: "transfer", excluded: true } as const
const expense = { type: "expense" } as const

/**
 * The standard taxonomy, parents before their children: the twin's slugs, names, structure and colors (its
 * `uncategorized` aside: no category is uncategorised, so a category of that name would split the bucket). The types
 * are this service's: revenue with the contra-revenue refunds and chargebacks, cost of goods sold, operating
 * expenses, and transfers (money moved, never income nor spend: between own accounts, card repayments, loans, payouts,
 * the owner's equity), of which internal transfers and card repayments are excluded as in the twin. Seeded for every
 * team (`TeamOpening.open`; migration 0047 moved the teams before it from the service's first taxonomy); slugs are
 * stable.
 */
export const STANDARD_CATEGORIES: ReadonlyArray<StandardCategory> = [
  ...group(["revenue", "Revenue", "#00D084"], "revenue", [
    ["income", "Income", "#06EB51"],
    ["product-sales", "Product Sales", "#00D084"],
    ["service-revenue", "Service Revenue", "#00E676"],
    ["consulting-revenue", "Consulting Revenue", "#00C853"],
    ["subscription-revenue", "Subscription Revenue", "#00E676"],
    ["interest-income", "Interest Income", "#00B894"],
    ["other-income", "Other Income", "#00C853"],
    ["customer-refunds", "Customer Refunds", "#00D084", contra],
    ["chargebacks-disputes", "Chargebacks & Disputes", "#00B894", contra]
  ]),
  ...group(["cost-of-goods-sold", "Cost of Goods Sold", "#FF6900"], "cost_of_goods_sold", [
    ["inventory", "Inventory", "#FF6900"],
    ["manufacturing", "Manufacturing", "#FF8A00"],
    ["shipping-inbound", "Shipping (Inbound)", "#FF8A00"],
    ["duties-customs", "Duties & Customs", "#FF8A00"]
  ]),
  ...group(["sales-marketing", "Sales & Marketing", "#0693E3"], "expense", [
    ["marketing", "Marketing", "#0693E3"],
    ["advertising", "Advertising", "#00A9FE"],
    ["website", "Website", "#0074D9"],
    ["events", "Events", "#0693E3"],
    ["promotional-materials", "Promotional Materials", "#00A9FE"]
  ]),
  ...group(["operations", "Operations", "#8ED1FC"], "expense", [
    ["office-supplies", "Office Supplies", "#8ED1FC"],
    ["rent", "Rent", "#A8E6FF"],
    ["utilities", "Utilities", "#39CCCC"],
    ["facilities-expenses", "Facilities Expenses", "#8ED1FC"],
    ["equipment", "Equipment", "#00A9FE"],
    ["internet-and-telephone", "Internet & Telephone", "#39CCCC"],
    ["shipping", "Shipping", "#0074D9"]
  ]),
  ...group(["professional-services", "Professional Services", "#9900EF"], "expense", [
    ["professional-services-fees", "Professional Services Fees", "#9900EF"],
    ["contractors", "Contractors", "#B388EB"],
    ["insurance", "Insurance", "#8A2BE2"]
  ]),
  ...group(["human-resources", "Human Resources", "#EB144C"], "expense", [
    ["salary", "Salary", "#EB144C"],
    ["training", "Training", "#FF6FA4"],
    ["benefits", "Benefits", "#FF78CB"]
  ]),
  ...group(["travel-entertainment", "Travel & Entertainment", "#FF9F1C"], "expense", [
    ["travel", "Travel", "#FF9F1C"],
    ["meals", "Meals", "#FFB74D"],
    ["activity", "Activity", "#FFCC02"]
  ]),
  ...group(["technology", "Technology", "#39CCCC"], "expense", [
    ["software", "Software", "#39CCCC"],
    ["non-software-subscriptions", "Non-Software Subscriptions", "#00A9FE"]
  ]),
  ...group(["banking-finance", "Banking & Finance", "#0074D9"], "expense", [
    ["transfer", "Transfer", "#0074D9", transfer],
    ["credit-card-payment", "Credit Card Payment", "#00A9FE", excludedTransfer],
    ["banking-fees", "Banking Fees", "#0693E3"],
    ["loan-proceeds", "Loan Proceeds", "#0074D9", transfer],
    ["loan-principal-repayment", "Loan Principal Repayment", "#00A9FE"],
    ["interest-expense", "Interest Expense", "#0693E3"],
    ["payouts", "Payouts", "#0074D9", transfer],
    ["processor-fees", "Processor Fees", "#00A9FE"],
    ["fees", "Fees", "#0693E3"]
  ]),
  ...group(["assets-capex", "Assets", "#3D9970"], "expense", [
    ["fixed-assets", "Fixed Assets", "#3D9970"],
    ["prepaid-expenses", "Prepaid Expenses", "#4C6B88"]
  ]),
  ...group(["liabilities-debt", "Liabilities & Debt", "#B04632"], "expense", [
    ["leases", "Leases", "#B04632"],
    ["deferred-revenue", "Deferred Revenue", "#C46210", transfer]
  ]),
  ...group(["taxes", "Taxes & Government", "#DC2626"], "expense", [
    ["vat-gst-pst-qst-payments", "VAT/GST/PST/QST Payments", "#DC2626"],
    ["sales-use-tax-payments", "Sales & Use Tax Payments", "#FF5A5F"],
    ["income-tax-payments", "Income Tax Payments", "#DC2626"],
    ["payroll-tax-remittances", "Payroll Tax Remittances", "#FF5A5F"],
    ["employer-taxes", "Employer Taxes", "#DC2626"],
    ["government-fees", "Government Fees", "#DC2626"]
  ]),
  ...group(["owner-equity", "Owner / Equity", "#059669"], "transfer", [
    ["owner-draws", "Owner Draws", "#059669"],
    ["capital-investment", "Capital Investment", "#00B894"],
    ["charitable-donations", "Charitable Donations", "#00C853", expense]
  ]),
  ...group(["system", "System", "#6B7280"], "expense", [
    ["other", "Other", "#9CA3AF"],
    ["internal-transfer", "Internal Transfer", "#6B7280", excludedTransfer]
  ])
]

/**
 * The service's first taxonomy's slugs that the twin's names otherwise (each the same category, renamed in place by
 * migration 0047); the first taxonomy's other slugs are the twin's too, or became the team's own categories.
 */
export const RENAMED_STANDARD_SLUGS: ReadonlyArray<readonly [from: string, to: string]> = [
  ["internet-and-phone", "internet-and-telephone"],
  ["entertainment", "activity"],
  ["bank-fees", "banking-fees"],
  ["payment-processing-fees", "processor-fees"],
  ["loan-repayment", "loan-principal-repayment"],
  ["taxes-government", "taxes"],
  ["licenses-permits", "government-fees"],
  ["internal-transfers", "internal-transfer"],
  ["credit-card-payments", "credit-card-payment"]
]

/** The slugs whose positive transactions are revenue (CONTRACT.md's revenue categories). */
export const REVENUE_SLUGS: ReadonlyArray<string> = [
  "revenue",
  "income",
  "product-sales",
  "service-revenue",
  "consulting-revenue",
  "subscription-revenue",
  "interest-income",
  "other-income"
]

/** The contra-revenue slugs: revenue given back, subtracted from revenue. */
export const CONTRA_REVENUE_SLUGS: ReadonlyArray<string> = ["customer-refunds", "chargebacks-disputes"]

/** The standard taxonomy as a team's system categories, parents first, with the ids given in the same order. */
export const standardCategoriesOf = (teamId: TeamId, ids: ReadonlyArray<CategoryId>, at: string): Array<Category> => {
  const idOf = new Map(STANDARD_CATEGORIES.map((category, i) => [category.slug, ids[i]!]))
  return STANDARD_CATEGORIES.map((category) => ({
    id: idOf.get(category.slug)!,
    teamId,
    slug: category.slug,
    name: category.name,
    color: category.color,
    description: null,
    taxRate: category.taxRate,
    taxType: category.taxType,
    parentId: category.parent === null ? null : (idOf.get(category.parent) ?? null),
    type: category.type,
    excluded: category.excluded,
    system: true,
    createdAt: at,
    updatedAt: at
  }))
}
