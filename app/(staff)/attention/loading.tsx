export { PageLoading as default } from '@/components/ui/PageLoading';
