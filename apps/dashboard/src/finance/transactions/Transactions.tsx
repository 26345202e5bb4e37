import { PageHeader } from "../../ui/components.tsx"

export const Transactions = () => <PageHeader title="Transactions">Being built.</PageHeader>
