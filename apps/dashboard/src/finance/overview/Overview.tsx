import { PageHeader } from "../../ui/components.tsx"

export const Overview = () => <PageHeader title="Overview">Being built.</PageHeader>
